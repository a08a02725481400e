/**
 * The block layer of the model: {@link lab.engine.block.Bio} (block/bio.c) and its pool
 * {@link lab.engine.block.Bioset}, the device contract {@link lab.engine.block.BlockDevice},
 * the drivers {@link lab.engine.block.NullBlk} (drivers/block/null_blk) and
 * {@link lab.engine.block.RamDisk} (drivers/block/brd.c), and the disk with its partitions,
 * {@link lab.engine.block.Gendisk} and {@link lab.engine.block.Partition} (block/genhd.c,
 * block/partitions/core.c, the remap of block/blk-core.c).
 *
 * <h2>Where the model simplifies the kernel</h2>
 * <ul>
 * <li>Every device is bio-based: no request queue, no blk-mq tags or hardware queues, no I/O
 *     scheduler, no plugging, no merging. The driver's {@code submitBio} runs in the
 *     submitter's context, as brd's and dm's do.</li>
 * <li>No interrupts: a device completes either inside {@code submitBio} or from
 *     {@code poll(cpu)} on the submitting worker (null_blk's timer mode), so {@code endIo} always
 *     runs on the thread that owns the bio's per-cpu slot.</li>
 * <li>"Per-CPU" means per worker thread (see {@code lab.engine.sync}); a bio records its
 *     submitter's slot in {@link lab.engine.block.Bio#cpu}.</li>
 * <li>Pages are off-heap {@link java.lang.foreign.MemorySegment}s; a bioset's bios carry their own
 *     pages (like io buffers), clones share the source's.</li>
 * <li>Accounting (the {@code part-acct} fix): {@link lab.engine.block.BlkAccount} accounts each
 *     bio to its partition as v4.2's request path did ({@code blk_account_io_start/done}),
 *     with the partition reference, in-flight counters and tick work that the chosen
 *     {@link lab.engine.block.AcctMode} picks once per disk (one strategy object per kernel
 *     concept, never a flag tested per I/O), against a real tick clock,
 *     {@link lab.engine.block.Jiffies}. A disk made without a mode accounts nothing
 *     ({@code queue/iostats} = 0). No merges, discards or flushes are counted.</li>
 * <li>Shared-line counts ({@code lab.engine.count}): a {@link lab.engine.block.Gendisk} made with a
 *     {@code SharedLines} sink reports the operations on its partitions' hot lines; none by
 *     default. The kernel's own per-I/O CPU ({@code base_ns}) is a {@code lab.engine.work.CpuWork}
 *     a driver spends in {@code submitBio}; none by default.</li>
 * </ul>
 *
 * <h2>Allocation</h2>
 * Nothing on the I/O path allocates once each worker's bio free list and each device's per-slot
 * list have grown to the worker's depth ({@code BiosetTest} checks &lt; 1 byte per I/O).
 */
package lab.engine.block;
