package lab.engine.block;

import lab.engine.count.SharedLines;
import lab.engine.sync.Rcu;
import lab.engine.sync.Ref;

/*
 * The partition reference of the part-acct fix (seed 002_84cddfb167739f27.txt):
 * hd_struct.ref of include/linux/genhd.h, which blk_account_io_start() takes
 * and blk_account_io_done() drops on every I/O, and what its kind needs from
 * the rest of the disk.
 *
 *   hd_ref_init          init(): the table's reference, made with the partition
 *   hd_struct_try_get    Ref.tryGetLive    (the I/O's partition)
 *   hd_struct_get        Ref.get           (part0, which is never killed)
 *   hd_struct_put        Ref.put           (the last put frees the partition)
 *   delete_partition     Ref.kill          (hd_struct_put, or hd_struct_kill)
 *
 * Two kinds, one per implementation: AtomicPartRef (atomic_t on the
 * partition's hot line, before the series) and PercpuPartRef (percpu_ref,
 * patches 1-2). AcctMode picks one per Gendisk; every partition of the disk
 * gets its reference from it, and the accounting reaches the kind's RCU only
 * through cpuOnline/cpuOffline/quiescent, which are nothing for the atomic
 * kind. Nothing here is tested per I/O: the kind is the object.
 */

/** How a disk's partitions hold their reference: {@code hd_ref_init()} and the domain the reference lives in. */
interface PartRef {
    /**
     * {@code hd_ref_init()}: the reference of a new partition, holding the table's reference;
     * {@code release} runs once, when it reaches zero. {@code hot[at]} is the word on the
     * partition's hot line that v4.2 keeps an {@code atomic_t ref} in; a kind that keeps its count
     * elsewhere leaves it alone. The reference reports its shared-line operations to
     * {@code lines} as {@code site} ({@code part.ref}, {@code part0.ref}).
     */
    Ref init(long[] hot, int at, Runnable release, SharedLines lines, String site);

    /** The owner of slot {@code cpu} starts issuing I/O (see {@link Gendisk#cpuOnline}). Owner only. */
    void cpuOnline(int cpu);

    /** The owner of slot {@code cpu} stops issuing I/O. Owner only. */
    void cpuOffline(int cpu);

    /** Between two I/Os of slot {@code cpu}, outside any get/put: a quiescent state, where the kind has an RCU. */
    void quiescent(int cpu);

    /** The RCU the references need, or null where they need none (tests wait for its callbacks). */
    Rcu rcu();
}
