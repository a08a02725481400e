package lab.bridge.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The lab's rule for writes: a block device is the lab's to write only if kernel-scripts made it,
 * that is, the registry {@code $LAB_STATE/kernel/registry} has its line and the device is still
 * what that line says. The same test, kind by kind, as {@code _lab_require_owned} in
 * {@code kernel-scripts/common/rc.sh}, so that the bridge and the scripts agree on every device:
 * <ul>
 * <li>{@code zramN}: a line {@code zram zramN} (the lab hot-added that index);</li>
 * <li>{@code loopN}: a line {@code loop /dev/loopN FILE}, where FILE is what
 *     {@code /sys/block/loopN/loop/backing_file} says now and lies in the registry's own
 *     {@code loop/} folder;</li>
 * <li>a null_blk disk: a line {@code nullb NAME DIR}, DIR a {@code labnb*} item under the
 *     null_blk configfs, and NAME either DIR's own name or {@code nullb} + DIR's index;</li>
 * <li>{@code dm-N}: a line {@code dm NAME} for its {@code dm/name}, and a {@code LAB-} uuid when
 *     it has one.</li>
 * </ul>
 * A partition of such a disk is the lab's too (the lab wrote its table). Everything else is
 * refused, with the reason: a device of another kind, one the registry does not list, one whose
 * line no longer matches (a loop re-attached to someone's file), or every device when there is
 * no registry. Whether the device is in use is not this rule's question: the run holds every
 * written device with {@code O_EXCL} ({@link DeviceClaim}).
 *
 * <p>Reads files only, on every call (the registry changes as scripts run); stateless.
 */
final class RegistryOwnership implements DeviceOwnership {

    private static final Pattern ZRAM = Pattern.compile("zram\\d+");
    private static final Pattern LOOP = Pattern.compile("loop\\d+");
    private static final Pattern NULLB = Pattern.compile("nullb\\d+|labnb.*");
    private static final Pattern DM = Pattern.compile("dm-\\d+");

    private final Path registry;
    private final Path sysDevBlock;
    private final Path nullbConfigfs;

    /**
     * @param registry      the registry file; null when this run knows of none
     * @param sysDevBlock   {@code /sys/dev/block}
     * @param nullbConfigfs {@code /sys/kernel/config/nullb}
     */
    RegistryOwnership(Path registry, Path sysDevBlock, Path nullbConfigfs) {
        this.registry = registry;
        this.sysDevBlock = sysDevBlock;
        this.nullbConfigfs = nullbConfigfs;
    }

    @Override
    public Optional<String> refusal(String path, int major, int minor) {
        try {
            return Optional.ofNullable(why(major + ":" + minor));
        } catch (IOException e) {
            return Optional.of("the lab cannot tell whether it made it: " + e.getMessage());
        }
    }

    /** Null when the lab made the device {@code devno}, else why not. */
    private String why(String devno) throws IOException {
        if (registry == null) {
            return "no lab registry is known to this run (./lab passes it; else set LAB_STATE or"
                    + " -Dlab.registry), so no device counts as the lab's";
        }
        Path dir = sysDevBlock.resolve(devno);
        if (!Files.isDirectory(dir)) {
            return "sysfs does not know it (no " + dir + ")";
        }
        dir = dir.toRealPath();
        if (Files.exists(dir.resolve("partition"))) {
            String whole = whyDisk(dir.getParent());
            return whole == null ? null : "it is a partition of " + dir.getParent().getFileName() + ", and " + whole;
        }
        return whyDisk(dir);
    }

    /** Null when the lab made the whole disk at sysfs directory {@code dir}, else why not. */
    private String whyDisk(Path dir) throws IOException {
        String name = dir.getFileName().toString();
        List<String[]> lines = lines();
        if (lines == null) {
            return "the lab has made no devices here (no registry " + registry + ")";
        }
        if (ZRAM.matcher(name).matches()) {
            return find(lines, "zram", name) != null ? null : notListed("zram " + name);
        }
        if (LOOP.matcher(name).matches()) {
            String file = find(lines, "loop", "/dev/" + name);
            if (file == null) {
                return notListed("loop /dev/" + name);
            }
            String now = read(dir.resolve("loop/backing_file"));
            if (!file.equals(now)) {
                return "its backing file is " + (now.isEmpty() ? "none" : now) + ", not the lab's " + file;
            }
            if (!Path.of(file).normalize().startsWith(registry.resolveSibling("loop"))) {
                return "its backing file " + file + " is outside the lab's " + registry.resolveSibling("loop");
            }
            return null;
        }
        if (NULLB.matcher(name).matches()) {
            String item = find(lines, "nullb", name);
            if (item == null) {
                return notListed("nullb " + name);
            }
            Path p = Path.of(item).normalize();
            if (!p.startsWith(nullbConfigfs) || !p.getFileName().toString().startsWith("labnb")) {
                return "its configfs item " + item + " is not a lab one (" + nullbConfigfs + "/labnb*)";
            }
            if (!name.equals(p.getFileName().toString()) && !("nullb" + read(p.resolve("index"))).equals(name)) {
                return item + " no longer backs " + name;
            }
            return null;
        }
        if (DM.matcher(name).matches()) {
            String dmName = read(dir.resolve("dm/name"));
            if (find(lines, "dm", dmName) == null) {
                return notListed("dm " + dmName);
            }
            String uuid = read(dir.resolve("dm/uuid"));
            return uuid.isEmpty() || uuid.startsWith("LAB-") ? null : "its dm uuid " + uuid + " is not a lab one (LAB-*)";
        }
        return "it is " + name + ", and the lab makes only zram, loop, null_blk and dm devices";
    }

    private String notListed(String line) {
        return "the lab did not make it (no '" + line + "' line in " + registry + ")";
    }

    /** The registry's lines split at tabs, or null when there is no registry. */
    private List<String[]> lines() throws IOException {
        try {
            return Files.readAllLines(registry).stream().map(l -> l.split("\t", 3)).toList();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** The detail of the first line {@code kind name}, "" when it has none; null when there is none. */
    private static String find(List<String[]> lines, String kind, String name) {
        for (String[] f : lines) {
            if (f.length >= 2 && f[0].equals(kind) && f[1].equals(name)) {
                return f.length == 3 ? f[2] : "";
            }
        }
        return null;
    }

    /** A sysfs/configfs attribute without its newline; "" when absent. */
    private static String read(Path attr) throws IOException {
        try {
            return Files.readString(attr).strip();
        } catch (NoSuchFileException e) {
            return "";
        }
    }
}
