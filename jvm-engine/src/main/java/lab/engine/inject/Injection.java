package lab.engine.inject;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.SharedLines;
import lab.engine.sync.Mutex;
import lab.engine.sync.PercpuSlots;
import lab.engine.sync.Rwsem;
import lab.jobspec.Inject;

/*
 * The contention points of one run: per stage, what the job's inject key asked
 * for there, built once at construction (the choice of an ops table, not a
 * flag per I/O).
 *
 *   atomic      one getAndAdd on the shared word              rmw on inject.line
 *   cmpxchg     compareAndSet(v, v) on the shared word        cas on inject.line
 *   mutex       lock + unlock of the shared Mutex             mutex on inject.mutex
 *   rwsem-read  downRead + upRead of the shared Rwsem         rwsem-read on inject.rwsem
 *   percpu      addOpaque on the caller's own slot            nothing: no shared line
 *
 * COUNT repeats the kind at that stage. Several entries at one stage run in
 * the order written. The word lies alone on a 128-byte line pair (PercpuSlots'
 * padding), so only the injection's own traffic meets on it.
 */

/** The job's {@code inject} list as code: one {@link InjectPoint} per stage. */
public final class Injection {
    /** Where the injected operations are counted: {@code inject.line}, {@code inject.mutex}, {@code inject.rwsem}. */
    public static final String SITE = "inject";
    /** No injection anywhere. */
    public static final Injection NONE = new Injection(List.of(), 1, SharedLines.NONE);

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final List<Inject> injects;
    private final Map<Inject.Stage, InjectPoint> points = new EnumMap<>(Inject.Stage.class);
    /** The shared word of atomic and cmpxchg points, alone on its line pair. */
    private final long[] line = new long[2 * PercpuSlots.PAD_LONGS + 1];
    private final Mutex mutex;
    private final Rwsem rwsem;
    private final PercpuSlots percpu;
    private final LineCounter rmw;
    private final LineCounter cas;

    /**
     * @param injects what the job asked for (may be empty)
     * @param nrCpus  per-cpu slots of the callers (for {@code percpu} points)
     * @param lines   where the shared operations are counted ({@link SharedLines#NONE} in timed runs)
     */
    public Injection(List<Inject> injects, int nrCpus, SharedLines lines) {
        this.injects = List.copyOf(injects);
        this.mutex = new Mutex(lines, SITE + ".mutex");
        this.rwsem = new Rwsem(lines, SITE + ".rwsem");
        this.percpu = new PercpuSlots(Math.max(1, nrCpus), 1);
        this.rmw = lines.counter(SITE + ".line", LineOp.RMW);
        this.cas = lines.counter(SITE + ".line", LineOp.CAS);
        for (Inject.Stage s : Inject.Stage.values()) {
            List<InjectPoint> at = new ArrayList<>();
            for (Inject i : this.injects) {
                if (i.stage() == s) {
                    at.add(point(i.kind(), i.count()));
                }
            }
            points.put(s, at.isEmpty() ? InjectPoint.NONE : at.size() == 1 ? at.getFirst() : new Many(at));
        }
    }

    /** The point of {@code stage}: fetch once, at construction of whatever runs the stage. */
    public InjectPoint at(Inject.Stage stage) {
        return points.get(stage);
    }

    /** What was asked for, in order. */
    public List<Inject> injects() {
        return injects;
    }

    /** Whether any entry lies inside a device-mapper layer ({@link Inject.Stage#perLayer}). */
    public boolean needsDm() {
        return injects.stream().anyMatch(i -> i.stage().perLayer());
    }

    /** The shared word's value: the atomic points' count so far (a snapshot; tests). */
    public long lineValue() {
        return (long) LONGS.getVolatile(line, PercpuSlots.PAD_LONGS);
    }

    @Override
    public String toString() {
        return injects.isEmpty() ? "none" : Inject.format(injects);
    }

    private InjectPoint point(Inject.Kind kind, int count) {
        return switch (kind) {
            case ATOMIC -> new InjectPoint() {
                @Override
                public void hit(int cpu) {
                    for (int i = 0; i < count; i++) {
                        rmw.add();
                        LONGS.getAndAdd(line, PercpuSlots.PAD_LONGS, 1L);
                    }
                }
            };
            case CMPXCHG -> new InjectPoint() {
                @Override
                public void hit(int cpu) {
                    for (int i = 0; i < count; i++) {
                        cas.add();
                        long v = (long) LONGS.getOpaque(line, PercpuSlots.PAD_LONGS);
                        LONGS.compareAndSet(line, PercpuSlots.PAD_LONGS, v, v);
                    }
                }
            };
            case MUTEX -> new InjectPoint() {
                @Override
                public void hit(int cpu) {
                    for (int i = 0; i < count; i++) {
                        mutex.lock();
                        mutex.unlock();
                    }
                }
            };
            case RWSEM_READ -> new InjectPoint() {
                @Override
                public void hit(int cpu) {
                    for (int i = 0; i < count; i++) {
                        rwsem.downRead();
                        rwsem.upRead();
                    }
                }
            };
            case PERCPU -> new InjectPoint() {
                @Override
                public void hit(int cpu) {
                    percpu.addOpaque(cpu, 0, count);
                }
            };
        };
    }

    /** Several entries at one stage, in the order written. */
    private static final class Many extends InjectPoint {
        private final InjectPoint[] all;

        Many(List<InjectPoint> all) {
            this.all = all.toArray(InjectPoint[]::new);
        }

        @Override
        public void hit(int cpu) {
            for (InjectPoint p : all) {
                p.hit(cpu);
            }
        }
    }
}
