package lab.bridge.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import lab.bridge.ffi.Stat;

/**
 * The interim {@link DeviceOwnership}: a block device is the lab's to write unless it is
 * <ul>
 * <li>mounted: its {@code major:minor} is field 3 of a line of {@code /proc/self/mountinfo};</li>
 * <li>in use as swap: listed in {@code /proc/swaps};</li>
 * <li>partitioned: a directory under {@code /sys/dev/block/MAJ:MIN/} holds a {@code partition}
 *     file;</li>
 * <li>held: {@code /sys/dev/block/MAJ:MIN/holders/} is not empty (dm, md, bcache on top);</li>
 * <li>a partition itself: {@code /sys/dev/block/MAJ:MIN/partition} exists.</li>
 * </ul>
 * A device sysfs does not know is refused as well. All three roots are injectable so that tests
 * run over a fake tree. Reads files only; stateless.
 */
final class SysfsOwnership implements DeviceOwnership {

    private final Path sysDevBlock;
    private final Path mountinfo;
    private final Path swaps;

    /**
     * @param sysDevBlock {@code /sys/dev/block}
     * @param mountinfo   {@code /proc/self/mountinfo}
     * @param swaps       {@code /proc/swaps}
     */
    SysfsOwnership(Path sysDevBlock, Path mountinfo, Path swaps) {
        this.sysDevBlock = sysDevBlock;
        this.mountinfo = mountinfo;
        this.swaps = swaps;
    }

    @Override
    public Optional<String> refusal(String path, int major, int minor) {
        String devno = major + ":" + minor;
        Path dir = sysDevBlock.resolve(devno);
        try {
            if (!Files.isDirectory(dir)) {
                return Optional.of("sysfs does not know it (no " + dir + "), so the lab cannot tell whether it is in use");
            }
            List<String> why = new ArrayList<>();
            mountPoint(devno).ifPresent(m -> why.add("it is mounted at " + m));
            if (isSwap(path, devno)) {
                why.add("it is in use as swap (/proc/swaps)");
            }
            if (Files.exists(dir.resolve("partition"))) {
                why.add("it is a partition of " + dir.toRealPath().getParent().getFileName());
            }
            List<String> parts = partitions(dir);
            if (!parts.isEmpty()) {
                why.add("it has partitions (" + String.join(", ", parts) + ")");
            }
            List<String> holders = list(dir.resolve("holders"));
            if (!holders.isEmpty()) {
                why.add("it is held by " + String.join(", ", holders) + " (" + dir.resolve("holders") + ")");
            }
            return why.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", why));
        } catch (IOException | UncheckedIOException e) {
            return Optional.of("its use could not be read from sysfs/procfs (" + e.getMessage() + ")");
        }
    }

    /** The mount point of the first mountinfo line whose field 3 is {@code devno}. */
    private Optional<String> mountPoint(String devno) throws IOException {
        try (Stream<String> lines = Files.lines(mountinfo)) {
            return lines.map(l -> l.split(" "))
                    .filter(f -> f.length > 4 && f[2].equals(devno))
                    .map(f -> f[4])
                    .findFirst();
        }
    }

    /** Whether /proc/swaps names this device, by path or by {@code major:minor}. */
    private boolean isSwap(String path, String devno) throws IOException {
        if (!Files.exists(swaps)) {
            return false;
        }
        for (String line : Files.readAllLines(swaps)) {
            String name = line.split("\\s+")[0];
            if (name.equals(path)) {
                return true;
            }
            if (name.startsWith("/")) {
                try {
                    Stat st = new Stat(0, ((Number) Files.getAttribute(Path.of(name), "unix:rdev")).longValue(), 0);
                    if (devno.equals(st.major() + ":" + st.minor())) {
                        return true;
                    }
                } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                    // a path gone since it was listed: not this device
                }
            }
        }
        return false;
    }

    /** The names of the subdirectories of a disk's sysfs directory that are partitions. */
    private static List<String> partitions(Path dir) throws IOException {
        List<String> parts = new ArrayList<>();
        try (Stream<Path> children = Files.list(dir)) {
            children.filter(c -> Files.isDirectory(c) && Files.exists(c.resolve("partition")))
                    .map(c -> c.getFileName().toString())
                    .sorted()
                    .forEach(parts::add);
        }
        return parts;
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }
}
