package lab.engine.sync;

import java.util.Arrays;
import java.util.List;

/**
 * The reader sides the lab's fixes switch between, as the kernel's refscale
 * ({@code kernel/rcu/refscale.c}) times them, plus the two floors every per-cpu
 * variant is measured against. One id per kind: the {@code primitive} variants of
 * {@code lab.engine.bench.Primitives}, and the names its results are filed under.
 */
public enum PrimitiveKind {
    /** {@link RefCount} get + put: two locked xadds on one shared line. */
    ATOMIC_REFCOUNT("atomic-refcount"),
    /** {@link PercpuRef} get + put in percpu mode, and the {@link Rcu} quiescent state it relies on. */
    PERCPU_REF("percpu-ref"),
    /** {@link Srcu} readLock + readUnlock: two own-slot increments and two full fences. */
    SRCU("srcu"),
    /** {@link Rwsem} downRead + upRead: two locked xadds on one line. */
    RWSEM_READ("rwsem-read"),
    /** {@link Mutex} lock + unlock: CAS + CAS on one line, and waiting. */
    MUTEX("mutex"),
    /** {@link PercpuCounter} add +1, add -1 (never reaching the batch). */
    PERCPU_COUNTER("percpu-counter"),
    /** Opaque inc + dec of the caller's own {@link PercpuSlots} slot: the floor, per-cpu arithmetic alone. */
    PADDED_SLOT("padded-slot"),
    /** The same on adjacent longs of one array: false sharing, the price of forgetting the padding. */
    UNPADDED_SLOT("unpadded-slot"),
    /** Inc and dec each by a compare-and-set loop on one shared line (cmpxchg, as css_tryget and inc_not_zero do). */
    CAS_REFCOUNT("cas-refcount"),
    /**
     * A load-acquire of the caller's own {@link PercpuSlots} slot and a store-release of it plus one:
     * refscale's {@code acqrel} ({@code smp_load_acquire} + {@code smp_store_release} of a per-CPU word).
     */
    ACQREL_SLOT("acqrel-slot");

    private final String id;

    PrimitiveKind(String id) {
        this.id = id;
    }

    /** The name benchmarks, scripts and results use. */
    public String id() {
        return id;
    }

    /** Every kind's {@link #id()}, in declaration order. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(PrimitiveKind::id).toList();
    }

    /** The kind named {@code id}. */
    public static PrimitiveKind of(String id) {
        for (PrimitiveKind k : values()) {
            if (k.id.equals(id)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown primitive: " + id + " (" + String.join(", ", ids()) + ")");
    }
}
