package lab.engine.sync;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/*
 * A single hot shared long, alone on its cache lines.
 *
 * The padding is built as JCTools builds it: a chain of superclasses, because
 * the JVM lays out a superclass's fields before its subclass's and does not
 * reorder fields across that boundary, while it may reorder pad fields declared
 * in one class. 128 bytes on each side, not 64: the adjacent-line prefetcher of
 * Intel cores pulls cache lines in pairs, so two hot words 64 bytes apart still
 * bounce together (Agrona pads the same way for the same reason).
 */
abstract class PaddedLongLhs {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p08, p09, p10, p11, p12, p13, p14, p15;
}

abstract class PaddedLongValue extends PaddedLongLhs {
    /** Accessed only through {@link PaddedLong#VALUE}. */
    long value;
}

abstract class PaddedLongRhs extends PaddedLongValue {
    long p16, p17, p18, p19, p20, p21, p22, p23;
    long p24, p25, p26, p27, p28, p29, p30, p31;
}

/**
 * A long on a 128-byte padded line of its own, with VarHandle access named by
 * memory mode. The shared word of {@link Rwsem},
 * {@link Mutex}, the grace-period counters, and the folded count of
 * {@link PercpuCounter}.
 */
public final class PaddedLong extends PaddedLongRhs {
    static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedLongValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public PaddedLong(long initial) {
        VALUE.setRelease(this, initial);
    }

    public long getPlain() {
        return (long) VALUE.get(this);
    }

    public long getOpaque() {
        return (long) VALUE.getOpaque(this);
    }

    public long getAcquire() {
        return (long) VALUE.getAcquire(this);
    }

    public long getVolatile() {
        return (long) VALUE.getVolatile(this);
    }

    public void setOpaque(long v) {
        VALUE.setOpaque(this, v);
    }

    public void setRelease(long v) {
        VALUE.setRelease(this, v);
    }

    /** Fully ordered fetch-and-add (lock xadd): atomic_long_fetch_add. */
    public long getAndAdd(long delta) {
        return (long) VALUE.getAndAdd(this, delta);
    }

    /** Fetch-and-add with release semantics only: atomic_long_fetch_add_release. */
    public long getAndAddRelease(long delta) {
        return (long) VALUE.getAndAddRelease(this, delta);
    }

    /** Fully ordered compare-and-set: atomic_long_try_cmpxchg. */
    public boolean compareAndSet(long expect, long update) {
        return VALUE.compareAndSet(this, expect, update);
    }

    /** Fully ordered fetch-or: atomic_long_fetch_or. */
    public long getAndBitwiseOr(long bits) {
        return (long) VALUE.getAndBitwiseOr(this, bits);
    }

    @Override
    public String toString() {
        return Long.toString(getOpaque());
    }
}
