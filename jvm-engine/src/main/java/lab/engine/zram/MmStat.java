package lab.engine.zram;

/**
 * A snapshot of {@code /sys/block/zramN/mm_stat}, the fields the model keeps, in bytes or pages.
 *
 * @param origDataSize  orig_data_size: bytes of data stored, pages_stored * PAGE_SIZE
 * @param comprDataSize compr_data_size: compressed bytes stored (PAGE_SIZE for a huge page, 0 for a same-filled one)
 * @param memUsedTotal  mem_used_total: bytes of zsmalloc pages in use, including fragmentation
 * @param samePages     same_pages: pages stored as a single repeated word
 * @param hugePages     huge_pages: pages stored uncompressed
 * @param pagesStored   pages_stored (not an mm_stat column: orig_data_size is derived from it)
 */
public record MmStat(long origDataSize, long comprDataSize, long memUsedTotal, long samePages, long hugePages,
                     long pagesStored) {
}
