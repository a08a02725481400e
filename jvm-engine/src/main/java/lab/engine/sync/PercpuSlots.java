package lab.engine.sync;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A per-cpu area: one padded slot of {@code fieldsPerSlot} longs for each of {@code nrCpus}
 * workers, as {@code alloc_percpu} gives each CPU its copy.
 *
 * <p>Layout: one long[], padded by stride, not by field count. A slot starts every
 * {@link #stride()} longs, a whole number of 128-byte line pairs chosen so that at least
 * {@value #PAD_LONGS} longs (128 bytes) lie between the last field of one slot and the first of
 * the next: {@code stride = roundUp(fieldsPerSlot + PAD_LONGS - 1, PAD_LONGS)}. 128 bytes rather
 * than 64 because Intel's adjacent-line prefetcher moves lines in 128-byte-aligned pairs (see
 * {@link PaddedLong}); and a distance, not an alignment, because a long[] is only 8-byte aligned,
 * so slot boundaries cannot be put on line boundaries. Two words 128 bytes apart or more never
 * share a 128-byte-aligned pair of lines, wherever the array starts. The same 128 bytes lie
 * between the array's header and the first slot, and between the last field and the array's end
 * (the last slot's own tail), so no slot shares a pair with the header or a neighbouring object.
 * A slot holds a few named fields ({@code field} is the index inside the slot).
 *
 * <p>Contract: only the thread that owns {@code cpu} writes that slot, so the
 * {@code add*} methods are a plain load and a store of the chosen mode, never
 * a locked read-modify-write (this_cpu_add). Other threads read with
 * {@code getOpaque}/{@code getAcquire} or sum a field over all slots. The one
 * exception, documented where it happens, is a writer that has first made
 * sure no owner can write (a percpu_ref in atomic mode after a grace period).
 */
public final class PercpuSlots {
    /** Longs of padding between different cpus' fields: 16 x 8 = 128 bytes, one line pair. */
    public static final int PAD_LONGS = 16;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] longs;
    private final int nrCpus;
    private final int fields;
    /** Longs from one slot's start to the next's: a multiple of PAD_LONGS, at least fields + PAD_LONGS - 1. */
    private final int stride;

    public PercpuSlots(int nrCpus, int fieldsPerSlot) {
        if (nrCpus < 1) {
            throw new IllegalArgumentException("nrCpus must be positive: " + nrCpus);
        }
        if (fieldsPerSlot < 1) {
            throw new IllegalArgumentException("fieldsPerSlot must be positive: " + fieldsPerSlot);
        }
        this.nrCpus = nrCpus;
        this.fields = fieldsPerSlot;
        // roundUp(fields + PAD_LONGS - 1, PAD_LONGS): the last field is PAD_LONGS longs before the next slot
        this.stride = Math.addExact(fieldsPerSlot, 2 * PAD_LONGS - 2) / PAD_LONGS * PAD_LONGS;
        this.longs = new long[Math.addExact(PAD_LONGS, Math.multiplyExact(nrCpus, stride))];
    }

    public int nrCpus() {
        return nrCpus;
    }

    /** Fields per slot. */
    public int fieldsPerSlot() {
        return fields;
    }

    /** Longs from the start of one cpu's slot to the next's (a multiple of {@value #PAD_LONGS}). */
    public int stride() {
        return stride;
    }

    /** Length of the backing array, in longs (for the layout test). */
    int length() {
        return longs.length;
    }

    /**
     * Index in the backing array of {@code field} of {@code cpu}'s slot. {@code cpu} is checked;
     * {@code field} only under {@code -ea}: callers pass constants, and the hot path stays as
     * short as a per-cpu access can be.
     */
    int index(int cpu, int field) {
        assert field >= 0 && field < fields : "field " + field + " outside a slot of " + fields;
        return PAD_LONGS + Objects.checkIndex(cpu, nrCpus) * stride + field;
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
        int base = PAD_LONGS + Objects.checkIndex(field, fields);
        long sum = 0;
        for (int cpu = 0; cpu < nrCpus; cpu++) {
            sum += (long) LONGS.getOpaque(longs, base + cpu * stride);
        }
        return sum;
    }

    /**
     * Sum of {@code count} adjacent fields from {@code first} over all slots, in one pass (each
     * slot's line is touched once, as a loop over {@code for_each_possible_cpu} reading a struct's
     * fields does); each read is opaque, racy as {@link #sumOpaque(int)}.
     */
    public long sumOpaque(int first, int count) {
        if (first < 0 || count < 1 || first + count > fields) {
            throw new IllegalArgumentException("fields " + first + "+" + count + " outside a slot");
        }
        long sum = 0;
        for (int cpu = 0; cpu < nrCpus; cpu++) {
            int base = PAD_LONGS + cpu * stride + first;
            for (int f = 0; f < count; f++) {
                sum += (long) LONGS.getOpaque(longs, base + f);
            }
        }
        return sum;
    }
}
