/**
 * Cgroup writeback: {@link lab.engine.writeback.BdiWriteback}, one cgroup's dirty data on one
 * device, its writer throttled at a dirty limit and written out by a flusher, a kernel thread,
 * in bios associated with the cgroup ({@code wbc_init_bio}). Buffered writes reach a disk only
 * this way, so only the association tells the disk whose they are.
 */
package lab.engine.writeback;
