package lab.engine.block;

import lab.engine.count.SharedLines;
import lab.engine.sync.PercpuRef;
import lab.engine.sync.Rcu;
import lab.engine.sync.Ref;

/*
 * hd_struct.ref after patches 1-2 of the seed: a percpu_ref.
 *
 *   hd_struct_try_get   percpu_ref_tryget_live: the caller's own slot, no shared line
 *   hd_struct_get       percpu_ref_get
 *   hd_struct_put       percpu_ref_put
 *   delete_partition    hd_struct_kill: percpu_ref_kill; after a grace period the
 *                       slots are folded into the atomic count, and the last put
 *                       frees the partition
 *
 * One Rcu per disk, of nrCpus slots, shared by every partition's reference.
 * percpu_ref_get/put run under rcu_read_lock_sched(), so each is a read-side
 * section of it, and a kill folds the slots only after every get/put in
 * flight has landed (PercpuRef's essay). A worker that goes online in it
 * (cpuOnline) enters those sections for free and reports a quiescent state
 * between I/Os (quiescent, from the end of blk_account_io_done): [B] in
 * Rcu.quiescent, paired with [E] in its grace-period scan. A submitter that
 * never goes online is as safe and pays a full fence per section.
 *
 * Model notes: a kernel CPU reports its quiescent state at its next context
 * switch or tick, not per I/O; the per-I/O report costs one read of the
 * grace-period counter, a line written only when a grace period starts. The
 * kernel embeds the percpu_ref in hd_struct, so its percpu_count_ptr is read
 * from the hot line too; here it is its own object, whose mode word no one
 * writes under I/O, and the hot line's REF word stays unused.
 */

/** The {@code percpu_ref} partition reference, in the disk's {@link Rcu}. */
final class PercpuPartRef implements PartRef {
    /** The disk's RCU domain: every partition's reference lives in it. */
    private final Rcu rcu;

    PercpuPartRef(int nrCpus) {
        this.rcu = new Rcu(nrCpus);
    }

    /** {@code hd_ref_init}: {@code percpu_ref_init(&part->ref, __delete_partition, 0)}. */
    @Override
    public Ref init(long[] hot, int at, Runnable release, SharedLines lines, String site) {
        return new PercpuRef(rcu, release, lines, site);
    }

    @Override
    public void cpuOnline(int cpu) {
        rcu.online(cpu);
    }

    @Override
    public void cpuOffline(int cpu) {
        rcu.offline(cpu);
    }

    @Override
    public void quiescent(int cpu) {
        rcu.quiescent(cpu); // between I/Os: no read-side section open
    }

    @Override
    public Rcu rcu() {
        return rcu;
    }

    @Override
    public String toString() {
        return "percpu_ref in " + rcu;
    }
}
