package lab.engine.count;

import java.util.Arrays;
import java.util.List;

/**
 * The kinds of operation on a cache line that every thread doing I/O shares, as the lab counts
 * them per I/O ({@link SharedLines}). Each is priced by one variant of
 * {@code lab.engine.bench.Primitives}, whose cost c(kind, threads, gap) the prediction multiplies
 * by the count.
 */
public enum LineOp {
    /** An atomic read-modify-write: {@code atomic_inc}, {@code atomic_dec_and_test}, getAndAdd, getAndSet (lock xadd). Priced by {@code atomic-refcount} (two per pair). */
    RMW("rmw"),
    /** A compare-and-set or compare-and-exchange, successful or not (lock cmpxchg): each attempt of a CAS loop. Priced by {@code cas-refcount} (two per pair). */
    CAS("cas"),
    /** One {@code down_read} + {@code up_read} pair of an rw_semaphore. Priced by {@code rwsem-read}. */
    RWSEM_READ("rwsem-read"),
    /** One lock + unlock pair of a mutex or a spinlock. Priced by {@code mutex}. */
    MUTEX("mutex"),
    /** A plain, opaque or release store to a word other threads read and write ({@code part->stamp = now}). */
    STORE("store");

    private final String id;

    LineOp(String id) {
        this.id = id;
    }

    /** The name counts are reported under. */
    public String id() {
        return id;
    }

    /** Every kind's {@link #id()}, in declaration order. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(LineOp::id).toList();
    }

    /** The kind named {@code id}. */
    public static LineOp of(String id) {
        for (LineOp k : values()) {
            if (k.id.equals(id)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown shared-line operation: " + id + " (" + String.join(", ", ids()) + ")");
    }
}
