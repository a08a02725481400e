package lab.bridge.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.bridge.ffi.Stat;

/**
 * {@code ioscheduler=NAME}: the block device's {@code queue/scheduler} for the run, fio's
 * {@code switch_ioscheduler()}. Checked with every other target check, before anything is
 * written: the target must be a block device the lab may write to (its registry, or
 * {@code --i-own-this-device}: the same rule as for writing, for reads too), the name must be in
 * the device's own list ({@code /sys/dev/block/MAJ:MIN/queue/scheduler}; a partition's is its
 * disk's), and jobs on one device must agree. {@link #apply} writes it just before the clones
 * start and {@link #close} writes back what was there, whatever happened; fio leaves its choice in
 * place after the run. A regular file is refused: fio would switch the scheduler of the device
 * under its file system, which the lab does not touch.
 */
final class IoScheduler implements AutoCloseable {

    /** One device's change: its sysfs file, the scheduler wanted and the one found. */
    private record Change(Path file, String wanted, String found) {
    }

    private final List<Change> changes;
    private final List<Change> applied = new ArrayList<>();

    private IoScheduler(List<Change> changes) {
        this.changes = changes;
    }

    /**
     * Checks every target's {@code ioscheduler}; writes nothing.
     *
     * @param sysDevBlock {@code /sys/dev/block} (tests may pass another)
     */
    static IoScheduler check(List<Target> targets, boolean iOwn, DeviceOwnership ownership, Path sysDevBlock)
            throws BridgeSetupException {
        Map<Path, Change> byFile = new LinkedHashMap<>();
        for (Target t : targets) {
            String wanted = t.job.ioscheduler();
            if (wanted == null) {
                continue;
            }
            String who = "job '" + t.job.name() + "' (" + t.job.source() + ":" + t.job.line() + "): ioscheduler="
                    + wanted;
            if (!t.block) {
                throw new BridgeSetupException(who + ": " + t.path + " is a regular file; the lab sets the scheduler of"
                        + " block devices it made only (fio would switch the device under the file system)");
            }
            Stat st = new Stat(0060000, t.rdev, 0);
            if (!iOwn) {
                Optional<String> no = ownership.refusal(t.path, st.major(), st.minor());
                if (no.isPresent()) {
                    throw new BridgeSetupException(who + ": refusing to change the scheduler of " + t.path + ": "
                            + no.get() + "; use a device the lab made, or pass --i-own-this-device");
                }
            }
            Path file = schedulerFile(sysDevBlock, st.major() + ":" + st.minor(), who);
            String line = read(file, who);
            List<String> names = Arrays.stream(line.strip().split("\\s+"))
                    .map(n -> n.replace("[", "").replace("]", "")).toList();
            if (!names.contains(wanted)) {
                throw new BridgeSetupException(who + ": " + t.path + " offers " + String.join(", ", names)
                        + " (" + file + "); load the scheduler's module or choose one of these");
            }
            String found = line.substring(line.indexOf('[') + 1, line.indexOf(']'));
            Change earlier = byFile.get(file);
            if (earlier != null && !earlier.wanted().equals(wanted)) {
                throw new BridgeSetupException(who + ": another job of the run sets ioscheduler=" + earlier.wanted()
                        + " on " + t.path + "; one device has one scheduler");
            }
            byFile.put(file, new Change(file, wanted, found));
        }
        return new IoScheduler(new ArrayList<>(byFile.values()));
    }

    private static Path schedulerFile(Path sysDevBlock, String majMin, String who) throws BridgeSetupException {
        Path dev = sysDevBlock.resolve(majMin);
        Path file = dev.resolve("queue/scheduler");
        if (!Files.exists(file)) {
            try {
                file = dev.toRealPath().getParent().resolve("queue/scheduler"); // a partition: its disk's queue
            } catch (IOException e) {
                throw new BridgeSetupException(who + ": no sysfs entry " + dev + ": " + e.getMessage(), e);
            }
        }
        if (!Files.exists(file)) {
            throw new BridgeSetupException(who + ": the device has no queue/scheduler in sysfs (" + dev + ")");
        }
        return file;
    }

    private static String read(Path file, String who) throws BridgeSetupException {
        try {
            String line = Files.readString(file);
            if (line.indexOf('[') < 0 || line.indexOf(']') < 0) {
                throw new BridgeSetupException(who + ": cannot read the current scheduler from '" + line.strip()
                        + "' (" + file + ")");
            }
            return line;
        } catch (IOException e) {
            throw new BridgeSetupException(who + ": cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes each device's scheduler; what it writes, {@link #close} writes back. */
    void apply(java.io.PrintStream notes) throws BridgeSetupException {
        for (Change c : changes) {
            if (c.wanted().equals(c.found())) {
                continue;
            }
            try {
                Files.writeString(c.file(), c.wanted());
            } catch (IOException e) {
                throw new BridgeSetupException("ioscheduler=" + c.wanted() + ": cannot write " + c.file() + ": "
                        + e.getMessage(), e);
            }
            applied.add(c);
            notes.println("lab: ioscheduler " + c.found() + " -> " + c.wanted() + " (" + c.file()
                    + "), restored after the run");
        }
    }

    /** Writes back the scheduler each changed device had. */
    @Override
    public void close() {
        for (Change c : applied) {
            try {
                Files.writeString(c.file(), c.found());
            } catch (IOException e) {
                System.err.println("lab: could not restore " + c.file() + " to " + c.found() + ": " + e.getMessage());
            }
        }
        applied.clear();
    }
}
