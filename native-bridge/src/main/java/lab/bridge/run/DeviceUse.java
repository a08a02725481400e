package lab.bridge.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import lab.bridge.ffi.Stat;

/**
 * Who uses a block device, as far as this mount namespace shows it: what {@link DeviceClaim}
 * says when an {@code O_EXCL} open answers {@code EBUSY}. That open is the guard; this only
 * names the holder, for the device and each of its partitions:
 * <ul>
 * <li>mounted: a line of {@code /proc/self/mountinfo} whose {@code major:minor} (field 3) is the
 *     device's, or whose mount source (after the {@code " - "} separator and the file system
 *     type) is its node: btrfs, bcachefs and ZFS report an anonymous {@code 0:NN} in field 3;</li>
 * <li>swap: listed in {@code /proc/swaps};</li>
 * <li>held: {@code /sys/dev/block/MAJ:MIN/holders/} is not empty (dm, md, bcache on top).</li>
 * </ul>
 * Mounts in another namespace and a program holding the device with {@code O_EXCL} leave no
 * trace here; the caller says so when the list is empty. The three roots are injectable so that
 * tests run over a fake tree. Reads files only; stateless.
 */
final class DeviceUse {

    private final Path sysDevBlock;
    private final Path mountinfo;
    private final Path swaps;
    private final Function<String, String> nodes;

    /**
     * @param sysDevBlock {@code /sys/dev/block}
     * @param mountinfo   {@code /proc/self/mountinfo}
     * @param swaps       {@code /proc/swaps}
     * @param nodes       the {@code "MAJ:MIN"} of the block device node at an absolute path, or null
     */
    DeviceUse(Path sysDevBlock, Path mountinfo, Path swaps, Function<String, String> nodes) {
        this.sysDevBlock = sysDevBlock;
        this.mountinfo = mountinfo;
        this.swaps = swaps;
        this.nodes = nodes;
    }

    /** The live system's files and device nodes. */
    static DeviceUse live() {
        return new DeviceUse(Path.of("/sys/dev/block"), Path.of("/proc/self/mountinfo"), Path.of("/proc/swaps"),
                DeviceUse::nodeDevno);
    }

    /** Each use found of device {@code major:minor} or its partitions, e.g. "it is mounted at /data (ext4)". */
    List<String> uses(int major, int minor) {
        List<String> why = new ArrayList<>();
        Path dir = sysDevBlock.resolve(major + ":" + minor);
        try {
            usesOf(dir, "it", why);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> children = Files.list(dir)) {
                    for (Path c : children.filter(c -> Files.exists(c.resolve("partition"))).sorted().toList()) {
                        usesOf(c, "its partition " + c.getFileName(), why);
                    }
                }
            }
        } catch (IOException | UncheckedIOException e) {
            why.add("its use could not be read from sysfs/procfs (" + e.getMessage() + ")");
        }
        return why;
    }

    /** The uses of the one device at sysfs directory {@code dir}, each said of {@code who}. */
    private void usesOf(Path dir, String who, List<String> why) throws IOException {
        String devno = Files.exists(dir.resolve("dev")) ? Files.readString(dir.resolve("dev")).strip() : null;
        if (devno == null) {
            return;
        }
        mountPoints(devno).forEach(m -> why.add(who + " is mounted at " + m));
        if (isSwap(devno)) {
            why.add(who + " is in use as swap (/proc/swaps)");
        }
        List<String> holders = list(dir.resolve("holders"));
        if (!holders.isEmpty()) {
            why.add(who + " is held by " + String.join(", ", holders) + " (" + dir.resolve("holders") + ")");
        }
    }

    /** "MOUNTPOINT (FSTYPE)" of every mountinfo line for {@code devno}, by field 3 or by its source node. */
    private List<String> mountPoints(String devno) throws IOException {
        List<String> at = new ArrayList<>();
        try (Stream<String> lines = Files.lines(mountinfo)) {
            for (String line : (Iterable<String>) lines::iterator) {
                String[] f = line.split(" ");
                int sep = List.of(f).indexOf("-");
                if (f.length < 5 || sep < 0 || sep + 2 >= f.length) {
                    continue;
                }
                if (f[2].equals(devno) || devno.equals(nodes.apply(f[sep + 2]))) {
                    at.add(f[4] + " (" + f[sep + 1] + ")");
                }
            }
        }
        return at;
    }

    /** Whether /proc/swaps names a node of {@code devno}. */
    private boolean isSwap(String devno) throws IOException {
        if (!Files.exists(swaps)) {
            return false;
        }
        for (String line : Files.readAllLines(swaps)) {
            if (devno.equals(nodes.apply(line.split("\\s+")[0]))) {
                return true;
            }
        }
        return false;
    }

    /** "MAJ:MIN" of a block device node named by an absolute path, or null. */
    private static String nodeDevno(String name) {
        if (!name.startsWith("/")) {
            return null;
        }
        try {
            Stat st = new Stat((Integer) Files.getAttribute(Path.of(name), "unix:mode"),
                    ((Number) Files.getAttribute(Path.of(name), "unix:rdev")).longValue(), 0);
            return st.isBlockDevice() ? st.major() + ":" + st.minor() : null;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null; // a path gone since it was listed, or not a node: not this device
        }
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }
}
