package lab.analysis.parse;

import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.Set;
import lab.analysis.MalformedResultException;

/**
 * One snapshot of zram's {@code /sys/block/zram<N>/mm_stat}: a single line of whitespace-separated
 * counters, defined in the kernel's {@code Documentation/admin-guide/blockdev/zram.rst}
 * ("mm_stat"). In file order:
 *
 * <pre>
 *  1 orig_data_size    bytes  uncompressed size of the data stored
 *  2 compr_data_size   bytes  compressed size of the data stored
 *  3 mem_used_total    bytes  memory allocated for it, including allocator overhead
 *  4 mem_limit         bytes  the cap on memory used; 0 means no limit
 *  5 mem_used_max      bytes  the most memory used so far
 *  6 same_pages        pages  pages of one repeated value, stored without memory
 *  7 pages_compacted   pages  pages freed by compaction
 *  8 huge_pages        pages  incompressible pages, stored uncompressed
 *  9 huge_pages_since  pages  incompressible pages since the device was set up (newer kernels only)
 * </pre>
 *
 * @param file where the values came from
 * @param hugePagesSince absent for an 8-field file, never 0 in its place
 */
public record ZramMmStat(Path file, long origDataSize, long comprDataSize, long memUsedTotal, long memLimit,
                         long memUsedMax, long samePages, long pagesCompacted, long hugePages,
                         OptionalLong hugePagesSince) {

    private static final String REFERENCE = "Documentation/admin-guide/blockdev/zram.rst, mm_stat";
    private static final String[] NAMES = {
        "orig_data_size", "compr_data_size", "mem_used_total", "mem_limit", "mem_used_max",
        "same_pages", "pages_compacted", "huge_pages", "huge_pages_since"};

    /**
     * Reads one snapshot.
     *
     * @throws MalformedResultException naming the file, for an empty or foreign file, a field
     *         count other than 8 or 9, or a field that is not an unsigned integer
     */
    public static ZramMmStat read(Path file) throws MalformedResultException {
        long[] v = SysfsCounters.read(file, NAMES, Set.of(8, 9), REFERENCE);
        OptionalLong since = v.length == 9 ? OptionalLong.of(v[8]) : OptionalLong.empty();
        return new ZramMmStat(file, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], since);
    }

    /** {@code orig_data_size / compr_data_size}; NaN when nothing compressed is stored (compr is 0). */
    public double compressionRatio() {
        return comprDataSize == 0 ? Double.NaN : (double) origDataSize / comprDataSize;
    }
}
