package lab.engine.block;

import lab.engine.count.SharedLines;
import lab.engine.sync.Rcu;
import lab.engine.sync.Ref;
import lab.engine.sync.RefCount;

/*
 * hd_struct.ref before the series (v4.1): an atomic_t in struct hd_struct, a
 * few bytes from stamp and in_flight[2], so on their cache line.
 *
 *   hd_struct_try_get   atomic_inc_not_zero: a load and a CAS on the hot line
 *   hd_struct_get       atomic_inc: a locked xadd on it
 *   hd_struct_put       atomic_dec_and_test: a locked xadd; the put that reaches
 *                       zero frees the partition (__delete_partition)
 *   delete_partition    hd_struct_put of the table's reference
 *
 * The count is a RefCount embedded at the REF word of the partition's hot
 * line (Partition), so that each get and put evicts the stamp every other CPU
 * reads on each I/O, as in v4.1. Ordering is RefCount's: the put is a release
 * fetch-add, paired with the acquire fence of the put that reaches zero.
 *
 * Per I/O (blk_account_io_start/done): one cas (inc_not_zero of try_get) and
 * one rmw (the put) on the hot line, counted at the site part.ref or
 * part0.ref.
 *
 * No RCU: cpuOnline, cpuOffline and quiescent do nothing. Stateless, so one
 * instance serves every disk.
 */

/** The {@code atomic_t} partition reference: a {@link RefCount} on the partition's hot line. */
final class AtomicPartRef implements PartRef {
    static final AtomicPartRef INSTANCE = new AtomicPartRef();

    private AtomicPartRef() {
    }

    /** {@code hd_ref_init}: {@code atomic_set(&part->ref, 1)} at {@code hot[at]}. */
    @Override
    public Ref init(long[] hot, int at, Runnable release, SharedLines lines, String site) {
        return new RefCount(hot, at, 1, release, lines, site);
    }

    @Override
    public void cpuOnline(int cpu) {
    }

    @Override
    public void cpuOffline(int cpu) {
    }

    @Override
    public void quiescent(int cpu) {
    }

    @Override
    public Rcu rcu() {
        return null;
    }

    @Override
    public String toString() {
        return "atomic_t";
    }
}
