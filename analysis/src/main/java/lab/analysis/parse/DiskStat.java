package lab.analysis.parse;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import lab.analysis.MalformedResultException;

/**
 * One snapshot of {@code /sys/block/<dev>/stat}: a single line of whitespace-separated unsigned
 * counters, defined in the kernel's {@code Documentation/block/stat.rst} (written by
 * {@code part_stat_show()} in {@code block/genhd.c}). In file order:
 *
 * <pre>
 *  1 read I/Os       requests       9 in_flight       requests (a gauge, not cumulative)
 *  2 read merges     requests      10 io_ticks        milliseconds
 *  3 read sectors    512-byte      11 time_in_queue   milliseconds
 *  4 read ticks      milliseconds  12 discard I/Os    requests      (Linux 4.18+)
 *  5 write I/Os      requests      13 discard merges  requests      (Linux 4.18+)
 *  6 write merges    requests      14 discard sectors 512-byte      (Linux 4.18+)
 *  7 write sectors   512-byte      15 discard ticks   milliseconds  (Linux 4.18+)
 *  8 write ticks     milliseconds  16 flush I/Os      requests      (Linux 5.5+)
 *                                  17 flush ticks     milliseconds  (Linux 5.5+)
 * </pre>
 *
 * A file holds 11, 15 or 17 fields depending on the kernel; the fields an older kernel does not
 * write are {@link OptionalLong#empty() absent}, never 0.
 *
 * @param file where the values came from; for a {@link #delta delta}, the "after" file
 */
public record DiskStat(Path file,
                       long readIos, long readMerges, long readSectors, long readTicksMs,
                       long writeIos, long writeMerges, long writeSectors, long writeTicksMs,
                       long inFlight, long ioTicksMs, long timeInQueueMs,
                       OptionalLong discardIos, OptionalLong discardMerges, OptionalLong discardSectors,
                       OptionalLong discardTicksMs,
                       OptionalLong flushIos, OptionalLong flushTicksMs) {

    private static final String REFERENCE = "Documentation/block/stat.rst";
    private static final String[] NAMES = {
        "readIos", "readMerges", "readSectors", "readTicksMs",
        "writeIos", "writeMerges", "writeSectors", "writeTicksMs",
        "inFlight", "ioTicksMs", "timeInQueueMs",
        "discardIos", "discardMerges", "discardSectors", "discardTicksMs",
        "flushIos", "flushTicksMs"};
    private static final int IN_FLIGHT = 8;

    /** Checks that the optional fields come in the groups a kernel writes them in. */
    public DiskStat {
        Objects.requireNonNull(file, "file");
        boolean discard = discardIos.isPresent();
        boolean flush = flushIos.isPresent();
        if (discardMerges.isPresent() != discard || discardSectors.isPresent() != discard
                || discardTicksMs.isPresent() != discard || flushTicksMs.isPresent() != flush
                || (flush && !discard)) {
            throw new IllegalArgumentException("discard fields must be all present or all absent,"
                    + " and flush fields only present with them");
        }
    }

    /**
     * Reads one snapshot.
     *
     * @throws MalformedResultException naming the file, for an empty or foreign file, a field
     *         count other than 11, 15 or 17, or a field that is not an unsigned integer
     */
    public static DiskStat read(Path file) throws MalformedResultException {
        return of(file, SysfsCounters.read(file, NAMES, Set.of(11, 15, 17), REFERENCE));
    }

    /**
     * What happened between two snapshots of the same device: {@code after - before} for every
     * cumulative counter, and {@code after}'s {@link #inFlight()} (a gauge).
     *
     * @throws MalformedResultException naming both files, when they hold different field counts
     *         or a cumulative counter went backwards (another device, or a reboot in between)
     */
    public static DiskStat delta(DiskStat before, DiskStat after) throws MalformedResultException {
        long[] b = before.values();
        long[] a = after.values();
        if (a.length != b.length) {
            throw new MalformedResultException(after.file(), "has " + a.length + " fields but "
                    + before.file() + " has " + b.length + "; not snapshots of the same kernel");
        }
        long[] d = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = i == IN_FLIGHT ? a[i] : difference(before, after, i, b[i], a[i]);
        }
        return of(after.file(), d);
    }

    /** How many fields the file held: 11, 15 or 17. */
    public int fieldCount() {
        return flushIos.isPresent() ? 17 : discardIos.isPresent() ? 15 : 11;
    }

    /** The fields in file order, as many as {@link #fieldCount()}. */
    public long[] values() {
        long[] all = {readIos, readMerges, readSectors, readTicksMs, writeIos, writeMerges, writeSectors,
            writeTicksMs, inFlight, ioTicksMs, timeInQueueMs,
            discardIos.orElse(0), discardMerges.orElse(0), discardSectors.orElse(0), discardTicksMs.orElse(0),
            flushIos.orElse(0), flushTicksMs.orElse(0)};
        return Arrays.copyOf(all, fieldCount());
    }

    private static long difference(DiskStat before, DiskStat after, int i, long b, long a)
            throws MalformedResultException {
        if (a < b) {
            throw new MalformedResultException(after.file(), NAMES[i] + " went backwards: " + b + " in "
                    + before.file() + ", " + a + " here; not two snapshots of one device in order");
        }
        return a - b;
    }

    private static DiskStat of(Path file, long[] v) {
        return new DiskStat(file, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10],
                optional(v, 11), optional(v, 12), optional(v, 13), optional(v, 14),
                optional(v, 15), optional(v, 16));
    }

    private static OptionalLong optional(long[] v, int i) {
        return i < v.length ? OptionalLong.of(v[i]) : OptionalLong.empty();
    }
}
