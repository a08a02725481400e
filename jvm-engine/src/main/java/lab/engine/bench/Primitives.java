package lab.engine.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lab.engine.sync.Mutex;
import lab.engine.sync.PercpuCounter;
import lab.engine.sync.PercpuRef;
import lab.engine.sync.PercpuSlots;
import lab.engine.sync.PrimitiveKind;
import lab.engine.sync.Rcu;
import lab.engine.sync.RefCount;
import lab.engine.sync.Rwsem;
import lab.engine.sync.Srcu;
import lab.engine.work.CpuWork;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/*
 * What one get+put pair costs, per thread, for each primitive a fix switches
 * between: the JVM twin of the kernel's refscale (kernel/rcu/refscale.c),
 * which times rcu_read_lock/unlock, srcu_read_lock/unlock, refcount
 * inc/dec, rwsem down_read/up_read, and so on, in a loop on every CPU.
 *
 * Each variant (lab.engine.sync.PrimitiveKind, whose ids the @Param lists;
 * BenchParamsTest checks they agree) does the reader side of one primitive
 * once per op:
 *   atomic-refcount  RefCount get + put: two locked xadds on one shared line
 *   percpu-ref       PercpuRef get + put in percpu mode, plus one Rcu
 *                    quiescent state (the engine reports one per I/O, and
 *                    percpu-ref's correctness rests on it; the others do not
 *                    need one, so they do not pay for it)
 *   srcu             Srcu readLock + readUnlock (two own-slot increments and
 *                    two full fences)
 *   rwsem-read       Rwsem downRead + upRead: two locked xadds on one line
 *   mutex            Mutex lock + unlock: CAS + CAS on one line, and waiting
 *   percpu-counter   PercpuCounter add +1, add -1 (never reaches the batch)
 *   padded-slot      opaque inc + dec of the thread's own 128-byte slot: the
 *                    honest floor, what per-cpu arithmetic costs
 *   unpadded-slot    the same on adjacent longs of one array: false sharing,
 *                    the price of forgetting the padding
 *   cas-refcount     inc and dec each by a compare-and-set loop on one shared
 *                    line (try_cmpxchg: css_tryget, inc_not_zero)
 *   acqrel-slot      getAcquire, then setRelease of it plus one, on the thread's
 *                    own 128-byte slot: refscale's acqrel (smp_load_acquire +
 *                    smp_store_release of a per-CPU word), the kernel's floor
 * An id with the suffix ~aa (atomic-refcount~aa) runs the same primitive as an
 * A/A control trial (Variants).
 *
 * Each primitive prices one kind of shared-line operation that the count runs
 * report per I/O (lab.engine.count.LineOp): rmw by atomic-refcount (two per
 * pair), cas by cas-refcount (two per pair), rwsem-read by rwsem-read, mutex
 * by mutex. Two more parameters turn the pair into c(kind, threads, gap):
 *   line     shared: one object every thread uses (the contended line);
 *            private: each thread its own object, made on its own thread,
 *            the same instructions on a line no other thread writes. The
 *            difference at the same -t and gap is what sharing the line
 *            costs, per pair.
 *   gapNs    ns of calibrated uncontended CPU spent after each pair
 *            (lab.engine.work.CpuWork, Blackhole.consumeCPU tokens measured
 *            at setup): how often the line is touched. 0 is back to back;
 *            ~100 ns, ~1 us or a fix's base_ns are the gaps a kernel I/O
 *            leaves. The score includes the gap; subtract the private score
 *            at the same gap, not the gap itself.
 *   userGapNs 0, or ns of the same work after every second pair, gapNs
 *            after the others: the pattern of an I/O that visits its shared
 *            line at submission and at completion, with the device's work
 *            between the two visits and the submitter's between one I/O's
 *            last visit and the next one's first (part-acct's accounting
 *            window). A pair is then one visit, and its cost is what a
 *            visit costs at that I/O's rhythm.
 *
 * Threads come from JMH's -t; each takes its own slot index (its "cpu") from
 * a counter in the shared state, for up to MAX_THREADS threads.
 *
 * baseline is the harness alone, the JVM's twin of refscale's empty type (the
 * lab's patches/6.1/refscale-type-empty.patch): getPut's body, state and gap
 * with a pair that does nothing, so that JMH's loop, its blackhole, the pair's
 * call and the gap's are all it times. getPut less baseline, in the same JVM,
 * is the pair alone, as a refscale type less empty is the kernel's. It reads
 * no primitive or line (no @Param), so JMH runs it once a thread count; its
 * gap is always none (refscale's back-to-back loop).
 *
 * Reading it: the score is ns per pair (and gap) per thread. A primitive that
 * scales keeps it flat as -t grows (padded-slot, percpu-ref, percpu-counter, srcu
 * apart from its fences); one that shares a line grows with -t even with no
 * waiting at all (atomic-refcount, rwsem-read), and one that excludes grows
 * faster (mutex). Compare variants within one run, never across runs; with
 * more threads than cores the numbers include descheduling and say little.
 */

/**
 * refscale for the lab's sync primitives: ns per get+put pair per thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class Primitives {
    /** Slots allocated: the most JMH threads (-t) this benchmark supports. */
    static final int MAX_THREADS = 64;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    /** One reader-side pair of one primitive, for the slot {@code cpu}. */
    interface Pair {
        long run(int cpu);
    }

    /** Whose line the primitive's object is on: the {@code line} ids. */
    public enum Line {
        /** One object for every thread: the contended line. */
        SHARED("shared"),
        /** One object per thread, made on that thread: the same operations uncontended. */
        PRIVATE("private");

        private final String id;

        Line(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        /** Every id, in declaration order. */
        public static List<String> ids() {
            return Arrays.stream(values()).map(Line::id).toList();
        }

        static Line of(String id) {
            for (Line l : values()) {
                if (l.id.equals(id)) {
                    return l;
                }
            }
            throw new IllegalArgumentException("unknown line: " + id + " (" + String.join(", ", ids()) + ")");
        }
    }

    @State(Scope.Benchmark)
    public static class Shared {
        /** {@link PrimitiveKind#ids()}, in order. */
        @Param({"atomic-refcount", "percpu-ref", "srcu", "rwsem-read", "mutex",
                "percpu-counter", "padded-slot", "unpadded-slot", "cas-refcount", "acqrel-slot"})
        public String primitive;

        /** {@link Line} ids: {@code private} is the uncontended baseline, asked for with {@code -p line=shared,private}. */
        @Param({"shared"})
        public String line;

        /** ns of calibrated uncontended CPU after each pair; a number, 0 for none. */
        @Param({"0"})
        public long gapNs;

        /** 0, or ns of calibrated CPU after every second pair instead of {@link #gapNs}. */
        @Param({"0"})
        public long userGapNs;

        final CpuIds cpus = new CpuIds(MAX_THREADS);
        Rcu rcu;
        PrimitiveKind kind;
        /** The one pair every thread runs ({@link Line#SHARED}), or null: each thread makes its own. */
        Pair pair;
        /** The gaps pairs take in turn: {@link #gapNs} alone, or it and {@link #userGapNs}. */
        CpuWork[] gaps;

        @Setup(Level.Trial)
        public void setUp() {
            rcu = new Rcu(MAX_THREADS);
            kind = PrimitiveKind.of(Variants.id(primitive));
            pair = Line.of(line) == Line.SHARED ? pairFor(kind, rcu) : null;
            CpuWork gap = CpuWork.forNs(gapNs);
            gaps = userGapNs == 0 ? new CpuWork[] {gap} : new CpuWork[] {gap, CpuWork.forNs(userGapNs)};
        }

        int takeCpu() {
            return cpus.take();
        }
    }

    /** A pair that does nothing: {@link #baseline}'s, its slot handed back for the blackhole. */
    static final Pair NOTHING = cpu -> cpu;

    /**
     * What {@link #getPut} reads per op besides the pair's own work: a slot, a pair to call, the
     * gaps to take in turn. As it is, {@link #baseline}'s state: slot 0, the pair {@link #NOTHING},
     * no gap; {@link Cpu} fills it for a primitive. Fields, not constants, so that the baseline
     * loads each per op as {@link #getPut} does.
     */
    @State(Scope.Thread)
    public static class Bare {
        int cpu;
        /** The shared pair, or this thread's own. */
        Pair pair = NOTHING;
        /** {@link Shared#gaps}, taken in turn: {@code next & mask}. */
        CpuWork[] gaps = {CpuWork.NONE};
        int mask;
        int next;

        /** The gap after this pair. */
        CpuWork gap() {
            return gaps[next++ & mask];
        }
    }

    /** The thread's slot, as a CPU's per-cpu area; online in the Rcu for the whole trial. */
    @State(Scope.Thread)
    public static class Cpu extends Bare {
        Rcu rcu;

        @Setup(Level.Trial)
        public void setUp(Shared shared) {
            cpu = shared.takeCpu();
            rcu = shared.rcu;
            pair = shared.pair != null ? shared.pair : pairFor(shared.kind, shared.rcu); // made here: on this thread's TLAB
            gaps = shared.gaps;
            mask = gaps.length - 1;
            rcu.online(cpu);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            rcu.offline(cpu);
        }
    }

    @Benchmark
    public long getPut(Cpu cpu) {
        long r = cpu.pair.run(cpu.cpu);
        cpu.gap().spend();
        return r;
    }

    /**
     * The harness alone: {@link #getPut}'s body on {@link Bare}, whose pair does nothing and whose
     * gap is none. Its score is what every getPut score at gap 0 includes besides the pair (JMH's
     * loop and blackhole, the pair's call, the gap's), the JVM's side of refscale's empty type.
     */
    @Benchmark
    public long baseline(Bare bare) {
        long r = bare.pair.run(bare.cpu);
        bare.gap().spend();
        return r;
    }

    /**
     * The pair alone, timed: {@link System#nanoTime()} before and after it, summed per thread
     * ({@link PairTimer}), the gap outside. At a gap of microseconds the score of {@link #getPut}
     * is mostly the gap's work, whose calibration differs from fork to fork by more than a line
     * transfer costs; the timed pair is not. Both clock reads are inside every interval, shared or
     * private alike, so they cancel in the difference. Not for gap 0: the clock reads would be the
     * gap.
     */
    @Benchmark
    public long timedGetPut(Cpu cpu, PairTimer timer) {
        long t0 = System.nanoTime();
        long r = cpu.pair.run(cpu.cpu);
        long t1 = System.nanoTime();
        timer.pairNs += t1 - t0;
        timer.pairs++;
        cpu.gap().spend();
        return r;
    }

    /**
     * The timed pairs of one thread in one iteration: ns spent in them and how many (JMH sums the
     * threads' counts; {@code pairNs / pairs} is ns per pair). Reset at each iteration.
     */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class PairTimer {
        public long pairNs;
        public long pairs;

        @Setup(Level.Iteration)
        public void reset() {
            pairNs = 0;
            pairs = 0;
        }
    }

    static Pair pairFor(PrimitiveKind primitive, Rcu rcu) {
        return switch (primitive) {
            case ATOMIC_REFCOUNT -> refCountPair();
            case PERCPU_REF -> percpuRefPair(rcu);
            case SRCU -> srcuPair();
            case RWSEM_READ -> rwsemReadPair();
            case MUTEX -> mutexPair();
            case PERCPU_COUNTER -> percpuCounterPair();
            case PADDED_SLOT -> paddedSlotPair();
            case UNPADDED_SLOT -> unpaddedSlotPair();
            case CAS_REFCOUNT -> casRefCountPair();
            case ACQREL_SLOT -> acqrelSlotPair();
        };
    }

    private static Pair refCountPair() {
        RefCount ref = new RefCount(() -> { });
        return cpu -> {
            ref.get(cpu);
            ref.put(cpu);
            return cpu;
        };
    }

    private static Pair percpuRefPair(Rcu rcu) {
        PercpuRef ref = new PercpuRef(rcu, () -> { });
        return cpu -> {
            ref.get(cpu);
            ref.put(cpu);
            rcu.quiescent(cpu); // between "I/Os": what keeps percpu mode safe to leave
            return cpu;
        };
    }

    private static Pair srcuPair() {
        Srcu srcu = new Srcu(MAX_THREADS);
        return cpu -> {
            int idx = srcu.readLock(cpu);
            srcu.readUnlock(cpu, idx);
            return idx;
        };
    }

    private static Pair rwsemReadPair() {
        Rwsem sem = new Rwsem();
        return cpu -> {
            sem.downRead();
            sem.upRead();
            return cpu;
        };
    }

    private static Pair mutexPair() {
        Mutex mutex = new Mutex();
        return cpu -> {
            mutex.lock();
            mutex.unlock();
            return cpu;
        };
    }

    private static Pair percpuCounterPair() {
        PercpuCounter counter = new PercpuCounter(MAX_THREADS);
        return cpu -> {
            counter.add(cpu, 1);
            counter.add(cpu, -1);
            return counter.batch();
        };
    }

    private static Pair paddedSlotPair() {
        PercpuSlots slots = new PercpuSlots(MAX_THREADS, 1);
        return cpu -> {
            slots.addOpaque(cpu, 0, 1);
            slots.addOpaque(cpu, 0, -1);
            return slots.getPlain(cpu, 0);
        };
    }

    /**
     * refscale's acqrel: {@code x = smp_load_acquire(this_cpu_ptr(&test_acqrel));
     * smp_store_release(this_cpu_ptr(&test_acqrel), x + 1)}, on the thread's own padded slot.
     */
    private static Pair acqrelSlotPair() {
        PercpuSlots slots = new PercpuSlots(MAX_THREADS, 1);
        return cpu -> {
            long x = slots.getAcquire(cpu, 0); // [acquire] pairs with the setRelease below, in this slot's previous pair
            slots.setRelease(cpu, 0, x + 1); // [release] pairs with the getAcquire above, in this slot's next pair
            return x;
        };
    }

    /** Inc and dec by try_cmpxchg loops on one word with 128 bytes of padding each side. */
    private static Pair casRefCountPair() {
        long[] words = new long[2 * PercpuSlots.PAD_LONGS + 1];
        int at = PercpuSlots.PAD_LONGS;
        LONGS.setRelease(words, at, 1L);
        return cpu -> {
            casAdd(words, at, 1);
            return casAdd(words, at, -1);
        };
    }

    /** atomic_try_cmpxchg loop: a failed compare-and-exchange hands back the value to retry from. */
    private static long casAdd(long[] words, int at, long delta) {
        long c = (long) LONGS.getOpaque(words, at);
        for (;;) {
            long witness = (long) LONGS.compareAndExchange(words, at, c, c + delta);
            if (witness == c) {
                return c + delta;
            }
            c = witness;
        }
    }

    /** Adjacent longs, eight to a cache line: every thread's slot shares a line with its neighbours'. */
    private static Pair unpaddedSlotPair() {
        long[] slots = new long[MAX_THREADS];
        return cpu -> {
            LONGS.setOpaque(slots, cpu, (long) LONGS.get(slots, cpu) + 1);
            LONGS.setOpaque(slots, cpu, (long) LONGS.get(slots, cpu) - 1);
            return (long) LONGS.get(slots, cpu);
        };
    }
}
