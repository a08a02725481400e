package lab.engine.block;

/*
 * in_flight[2] before patch 4/4 (v4.2): two atomic_t in struct hd_struct, on
 * its hot line beside stamp and ref (Partition).
 *
 *   part_inc_in_flight   atomic_inc(&part->in_flight[rw]), and part0's for a
 *                        partition: one or two locked xadds on hot lines
 *   part_dec_in_flight   atomic_dec, likewise
 *   part_in_flight       atomic_read of both: two opaque loads, no sum
 *
 * Ordering: none is needed. The counters publish nothing; readers take an
 * opaque snapshot (READ_ONCE), exact once the writers are quiet, as the
 * kernel's atomic_read is. The xadd is fully ordered only because that is
 * what a locked instruction costs; nothing pairs with it.
 *
 * Stateless (the words are the partition's), so one instance serves every disk.
 */

/** {@code in_flight[2]} as shared atomics on the partition's hot line. */
final class AtomicInFlight implements PartInFlight {
    static final AtomicInFlight INSTANCE = new AtomicInFlight();

    private AtomicInFlight() {
    }

    @Override
    public void add(int cpu, Partition part, int rw, long delta) {
        part.atomicInFlightAdd(rw, delta);
        if (part.partno() != 0) {
            part.disk().part0().atomicInFlightAdd(rw, delta);
        }
    }

    @Override
    public long sum(Partition part) {
        return part.atomicInFlight(0) + part.atomicInFlight(1);
    }

    @Override
    public long read(Partition part, int rw) {
        return part.atomicInFlight(rw);
    }

    @Override
    public String toString() {
        return "atomic in_flight";
    }
}
