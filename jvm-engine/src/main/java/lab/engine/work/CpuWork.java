package lab.engine.work;

/*
 * The kernel's own per-I/O work, as uncontended CPU time the model spends
 * where the kernel spends it: the "calibrated" model of the lab's fidelity
 * ladder (DESIGN.md, "Fidelity: raw, calibrated, predicted").
 *
 * A model I/O costs 10-150 ns, a kernel I/O microseconds (zram 4k read
 * ~3.5 us of task-clock here). A device given base_ns=N spends N ns of
 * work per I/O in its submit path, touching no shared memory, so that a
 * contended line is the share of an I/O it is in the kernel, and the gap
 * between two shared-line operations of one thread is as long.
 *
 * The work is JMH's Blackhole.consumeCPU(tokens): a loop with a carried
 * dependency that the JIT cannot fold away, the same anchor JMH's own
 * samples use. Tokens are turned into nanoseconds by a measurement made in
 * the same JVM when the work is made (CalibratedWork), never by a constant.
 *
 * Chosen at construction, as every switch of the engine is: CpuWork.forNs(0)
 * is NONE, which does nothing and is no object of its own (no calibration,
 * no allocation); a device keeps what forNs gave it in a final field and
 * calls spend() once per I/O without testing anything.
 */

/**
 * Uncontended CPU work spent once per I/O (or per operation): {@link #NONE}, or a
 * {@link CalibratedWork}. An abstract class rather than an interface so that a call site that only
 * ever sees {@link #NONE} costs nothing (see {@code lab.engine.count.SharedLines} on why).
 */
public abstract class CpuWork {
    /** No work: {@code base_ns=0}. */
    public static final CpuWork NONE = new NoWork();

    /** Only this package makes work: {@link #NONE}, {@link CalibratedWork} and the count run's {@link #marking marks}. */
    CpuWork() {
    }

    /** Spends the work once, on the calling thread. Thread-safe; touches no shared line. */
    public abstract void spend();

    /** The nanoseconds asked for (0 for {@link #NONE}). */
    public abstract long ns();

    /**
     * The work for {@code ns} nanoseconds per call: {@link #NONE} for 0, else a new
     * {@link CalibratedWork}, calibrated now (about 0.1 s).
     *
     * @throws IllegalArgumentException for a negative {@code ns}
     */
    public static CpuWork forNs(long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative work: " + ns + " ns");
        }
        return ns == 0 ? NONE : new CalibratedWork(ns);
    }

    /**
     * For the count run (lab.engine.count.LineTally#boundary): work that spends nothing and runs
     * {@code mark} where work would be spent, so that the tally sees where an I/O's uncontended
     * work separates one visit to a shared line from the next. Never in a timed run.
     */
    public static CpuWork marking(Runnable mark) {
        return new MarkWork(java.util.Objects.requireNonNull(mark, "mark"));
    }
}

/** {@link CpuWork#marking}. */
final class MarkWork extends CpuWork {
    private final Runnable mark;

    MarkWork(Runnable mark) {
        this.mark = mark;
    }

    @Override
    public void spend() {
        mark.run();
    }

    @Override
    public long ns() {
        return 0;
    }

    @Override
    public String toString() {
        return "a mark where work would be spent";
    }
}

/** {@link CpuWork#NONE}. */
final class NoWork extends CpuWork {
    NoWork() {
    }

    @Override
    public void spend() {
    }

    @Override
    public long ns() {
        return 0;
    }

    @Override
    public String toString() {
        return "no work";
    }
}
