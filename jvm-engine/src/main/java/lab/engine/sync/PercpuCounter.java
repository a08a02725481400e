package lab.engine.sync;

import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.SharedLines;

/*
 * A per-cpu counter, after lib/percpu_counter.c: a shared count plus a small
 * per-cpu delta. add(cpu, n) changes only the caller's slot (plain load,
 * opaque store) until the slot's magnitude would reach `batch`; then, under the
 * counter's lock, it folds the whole slot into the shared count and zeroes it
 * (percpu_counter_add_batch). So a writer touches the shared line once per
 * `batch` units, and read() of the shared count is off by at most
 * nrCpus * (batch - 1).
 *
 * sum() takes the lock and adds every slot to the shared count: exact for the
 * folding CPUs (a fold changes count and slot together under the lock) and
 * exact for all once the writers have quiesced (their last opaque stores
 * happen before the reader's lock through whatever made them quiesce, such
 * as Thread.join). This is the per-cpu sum of part_in_flight() that the
 * part-acct fix pays for on every round_stats tick.
 *
 * The shared count is guarded by `lock` for writes; read() takes it with a
 * single opaque load (READ_ONCE(fbc->count)). A slot is written only by its
 * owner, and by the owner alone also under the lock.
 *
 * Counting (lab.engine.count): an add within the batch writes the owner's
 * slot only and reports nothing; a fold is one mutex (fbc->lock) and one
 * store (fbc->count), both at the counter's site, as both sit in struct
 * percpu_counter.
 */

/**
 * A per-cpu counter with batched folding into a shared count.
 */
public final class PercpuCounter {
    private static final int DELTA = 0;

    private final PercpuSlots slots;
    /** The folded count; written under lock, read opaque by read(). */
    private final PaddedLong count;
    /** fbc->lock: serialises folds and sums. */
    private final Mutex lock;
    private final long batch;
    /** A fold's store to {@link #count}. */
    private final LineCounter countStore;

    /** A counter at zero with the kernel's default batch, max(32, 2 * nrCpus). */
    public PercpuCounter(int nrCpus) {
        this(nrCpus, 0, Math.max(32, 2L * nrCpus));
    }

    public PercpuCounter(int nrCpus, long initial, long batch) {
        this(nrCpus, initial, batch, SharedLines.NONE, "percpu_counter");
    }

    /** {@link #PercpuCounter(int, long, long)} reporting its folds to {@code lines} as {@code site}. */
    public PercpuCounter(int nrCpus, long initial, long batch, SharedLines lines, String site) {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be positive: " + batch);
        }
        this.slots = new PercpuSlots(nrCpus, 1);
        this.count = new PaddedLong(initial);
        this.batch = batch;
        this.lock = new Mutex(lines, site);
        this.countStore = lines.counter(site, LineOp.STORE);
    }

    /** percpu_counter_add: add with the counter's batch. Owner of cpu only. */
    public void add(int cpu, long amount) {
        addBatch(cpu, amount, batch);
    }

    public void inc(int cpu) {
        add(cpu, 1);
    }

    public void dec(int cpu) {
        add(cpu, -1);
    }

    /** percpu_counter_add_batch. Owner of cpu only. */
    public void addBatch(int cpu, long amount, long batch) {
        long delta = slots.getPlain(cpu, DELTA) + amount;
        if (Math.abs(delta) < batch) {
            slots.setOpaque(cpu, DELTA, delta);
        } else {
            fold(cpu, delta);
        }
    }

    private void fold(int cpu, long delta) {
        lock.lock();
        try {
            countStore.add();
            count.setOpaque(count.getPlain() + delta);
            slots.setOpaque(cpu, DELTA, 0);
        } finally {
            lock.unlock();
        }
    }

    /** percpu_counter_read: the shared count alone, off by up to nrCpus * (batch - 1). */
    public long read() {
        return count.getOpaque();
    }

    /** percpu_counter_read_positive. */
    public long readPositive() {
        return Math.max(0, read());
    }

    /** percpu_counter_sum: the shared count plus every slot, under the lock. */
    public long sum() {
        lock.lock();
        try {
            return count.getPlain() + slots.sumOpaque(DELTA);
        } finally {
            lock.unlock();
        }
    }

    /** percpu_counter_sum_positive. */
    public long sumPositive() {
        return Math.max(0, sum());
    }

    public long batch() {
        return batch;
    }

    @Override
    public String toString() {
        return "PercpuCounter[read=" + read() + ", batch=" + batch + "]";
    }
}
