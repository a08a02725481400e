package lab.engine.sync;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A per-cpu area: one padded slot of up to {@value #SLOT_LONGS} longs for each
 * of {@code nrCpus} workers, as {@code alloc_percpu} gives each CPU its copy.
 *
 * <p>Layout: one long[] with a stride of {@value #SLOT_LONGS} longs (128
 * bytes), and a whole empty slot before the first and after the last, so that
 * no slot shares a cache line, or the adjacent line that Intel's spatial
 * prefetcher pulls in with it, with another slot, the array header or a
 * neighbouring object. A slot holds a few named fields ({@code field} is the
 * index inside the slot).
 *
 * <p>Contract: only the thread that owns {@code cpu} writes that slot, so the
 * {@code add*} methods are a plain load and a store of the chosen mode, never
 * a locked read-modify-write (this_cpu_add). Other threads read with
 * {@code getOpaque}/{@code getAcquire} or sum a field over all slots. The one
 * exception, documented where it happens, is a writer that has first made
 * sure no owner can write (a percpu_ref in atomic mode after a grace period).
 */
public final class PercpuSlots {
    /** Longs per slot: 16 x 8 = 128 bytes, two cache lines. */
    public static final int SLOT_LONGS = 16;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] longs;
    private final int nrCpus;

    public PercpuSlots(int nrCpus, int fieldsPerSlot) {
        if (nrCpus < 1) {
            throw new IllegalArgumentException("nrCpus must be positive: " + nrCpus);
        }
        if (fieldsPerSlot < 1 || fieldsPerSlot > SLOT_LONGS) {
            throw new IllegalArgumentException("fieldsPerSlot must be in 1.." + SLOT_LONGS + ": " + fieldsPerSlot);
        }
        this.nrCpus = nrCpus;
        this.longs = new long[(nrCpus + 2) * SLOT_LONGS];
    }

    public int nrCpus() {
        return nrCpus;
    }

    private int index(int cpu, int field) {
        return (Objects.checkIndex(cpu, nrCpus) + 1) * SLOT_LONGS + field;
    }

    public long getPlain(int cpu, int field) {
        return (long) LONGS.get(longs, index(cpu, field));
    }

    public long getOpaque(int cpu, int field) {
        return (long) LONGS.getOpaque(longs, index(cpu, field));
    }

    public long getAcquire(int cpu, int field) {
        return (long) LONGS.getAcquire(longs, index(cpu, field));
    }

    public void setOpaque(int cpu, int field, long v) {
        LONGS.setOpaque(longs, index(cpu, field), v);
    }

    public void setRelease(int cpu, int field, long v) {
        LONGS.setRelease(longs, index(cpu, field), v);
    }

    /** Owner only: this_cpu_add. A plain load and an opaque store, no lock prefix. */
    public void addOpaque(int cpu, int field, long delta) {
        int i = index(cpu, field);
        LONGS.setOpaque(longs, i, (long) LONGS.get(longs, i) + delta);
    }

    /** Sum of one field over all slots, each read once (READ_ONCE); racy unless the caller has quiesced the owners. */
    public long sumOpaque(int field) {
        long sum = 0;
        for (int cpu = 0; cpu < nrCpus; cpu++) {
            sum += (long) LONGS.getOpaque(longs, (cpu + 1) * SLOT_LONGS + field);
        }
        return sum;
    }

    /**
     * Sum of {@code count} adjacent fields from {@code first} over all slots, in one pass (each
     * slot's line is touched once, as a loop over {@code for_each_possible_cpu} reading a struct's
     * fields does); each read is opaque, racy as {@link #sumOpaque(int)}.
     */
    public long sumOpaque(int first, int count) {
        if (first < 0 || count < 1 || first + count > SLOT_LONGS) {
            throw new IllegalArgumentException("fields " + first + "+" + count + " outside a slot");
        }
        long sum = 0;
        for (int cpu = 0; cpu < nrCpus; cpu++) {
            int base = (cpu + 1) * SLOT_LONGS + first;
            for (int f = 0; f < count; f++) {
                sum += (long) LONGS.getOpaque(longs, base + f);
            }
        }
        return sum;
    }
}
