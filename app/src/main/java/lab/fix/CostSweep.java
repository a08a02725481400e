package lab.fix;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.analysis.JmhSweep;
import lab.analysis.fidelity.LineCost;
import lab.engine.count.LineOp;
import lab.engine.sync.PrimitiveKind;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * What one shared-line operation costs in this run, c(kind, threads, gap): the primitives
 * benchmark ({@code lab.engine.bench.Primitives}) for each kind a fix's counts hold, on a shared
 * line and on a line of each thread's own, with 0, ~100 ns, ~1 µs and the fix's calibrated base
 * of uncontended work between operations, over the run's thread sweep, rounds interleaved like
 * the fix's own benchmark; into {@code raw/<fix>/PREFIX-rR-tT.json} (the benchmark's score, gap
 * included: gaps 0 and ~100 ns) and {@code PREFIX-timed-rR-tT.json} (the operations alone, timed
 * inside each op: ~1 µs and the base, where the gap's own fork-to-fork spread of about 1% would
 * swamp a line transfer), read by {@link LineCost}.
 *
 * <p>The kinds are priced by the primitive of {@link #PROBES}; a {@code store} to a shared word has
 * no primitive of its own and is priced as an RMW (an upper bound: a store needs the line
 * exclusive too, but does not wait for its result), which the notebook says.
 */
public final class CostSweep {
    private CostSweep() {}

    /** The primitive that prices each kind of shared-line operation, and operations per benchmark op. */
    public static final Map<String, LineCost.Probe> PROBES = probes();
    /** The gaps always measured, ns: back to back, ~100 ns, ~1 µs; a fix's base is added. */
    static final List<Long> GAPS = List.of(0L, 100L, 1000L);
    /** From this gap on the sweep times the operations alone ({@code timedGetPut}). */
    static final long TIMED_FROM = 1000;
    static final String SCORED = "lab\\.engine\\.bench\\.Primitives\\.getPut$";
    static final String TIMED = "lab\\.engine\\.bench\\.Primitives\\.timedGetPut$";
    /** The timed sweep's file prefix: PREFIX-timed. */
    public static String timedPrefix(String prefix) {
        return prefix + "-timed";
    }

    private static Map<String, LineCost.Probe> probes() {
        Map<String, LineCost.Probe> m = new LinkedHashMap<>();
        m.put(LineOp.RMW.id(), new LineCost.Probe(PrimitiveKind.ATOMIC_REFCOUNT.id(), 2));
        m.put(LineOp.CAS.id(), new LineCost.Probe(PrimitiveKind.CAS_REFCOUNT.id(), 2));
        m.put(LineOp.RWSEM_READ.id(), new LineCost.Probe(PrimitiveKind.RWSEM_READ.id(), 1));
        m.put(LineOp.MUTEX.id(), new LineCost.Probe(PrimitiveKind.MUTEX.id(), 1));
        m.put(LineOp.STORE.id(), new LineCost.Probe(PrimitiveKind.ATOMIC_REFCOUNT.id(), 2));
        return m;
    }

    /** The gaps a fix with {@code baseNs} of calibrated work per I/O is measured at in a full run. */
    public static List<Long> gaps(long baseNs) {
        return gaps(baseNs, false);
    }

    /**
     * The gaps a fix with {@code baseNs} of calibrated work per I/O is measured at: in a full run
     * {@link #GAPS} and the base; in a quick one the base alone, the one gap the headline's
     * prediction reads ({@code Prediction} prices each operation at the calibrated gap, and a
     * visit by the visits' sweep): 0 where the run has no calibration, or one that left no room
     * for a base (a model slower per I/O than the kernel, as on a machine busy with other work:
     * its prediction then reads gap 0). The fits of a line over gaps, and their extrapolation,
     * are a full run's.
     */
    public static List<Long> gaps(long baseNs, boolean quick) {
        if (quick) {
            return List.of(Math.max(0, baseNs));
        }
        Set<Long> g = new LinkedHashSet<>(GAPS);
        if (baseNs > 0) {
            g.add(baseNs);
        }
        return new ArrayList<>(g);
    }

    /** The visits' sweep's file prefix: PREFIX-visits. */
    public static String visitsPrefix(String prefix) {
        return prefix + "-visits";
    }

    /**
     * The JMH cells one round and thread count of the sweep runs: each kind's primitive on a shared
     * and a private line at each gap, and with {@code visits} the visit's pair, shared and private.
     */
    public static int cells(Set<String> kinds, long baseNs, boolean visits, boolean quick) {
        Set<String> primitives = new LinkedHashSet<>();
        kinds.forEach(k -> primitives.add(PROBES.get(k).primitive()));
        return primitives.size() * 2 * gaps(baseNs, quick).size() + (visits ? 2 : 0);
    }

    /** Runs the sweep for {@code kinds} into {@code raw/<fix>/PREFIX-rR-tT.json}. */
    public static void run(Pairing.Ctx c, String prefix, Set<String> kinds, long baseNs) throws Exception {
        run(c, prefix, kinds, baseNs, null);
    }

    /**
     * As {@link #run(Pairing.Ctx, String, Set, long)}, and with {@code rhythm} (null: none) what a
     * visit costs at the fix's I/O rhythm ({@link LineCost#visitExtra}): the timed RMW pair, shared
     * and private, with {@code rhythm[0]} ns of work after one pair and {@code rhythm[1]} after the
     * next, into {@code PREFIX-visits-rR-tT.json}, in the same rounds.
     */
    public static void run(Pairing.Ctx c, String prefix, Set<String> kinds, long baseNs, long[] rhythm) throws Exception {
        Set<String> primitives = new LinkedHashSet<>();
        kinds.forEach(k -> primitives.add(PROBES.get(k).primitive()));
        List<Long> gaps = gaps(baseNs, c.quick());
        if ((primitives.isEmpty() || gaps.isEmpty()) && rhythm == null) {
            return;
        }
        String[] scored = gaps.stream().filter(g -> g < TIMED_FROM).map(String::valueOf).toArray(String[]::new);
        String[] timed = gaps.stream().filter(g -> g >= TIMED_FROM).map(String::valueOf).toArray(String[]::new);
        Rounds.interleave(c.threads(), c.rounds(), c.progress(), prefix + " cost sweep", (r, t) -> {
            c.progress().printf("lab: %s round %d/%d, %d thread(s): c(kind, n, gap) for %s%s%n", prefix, r, c.rounds(), t, primitives,
                    rhythm == null ? "" : ", and a visit at " + rhythm[0] + " + " + rhythm[1] + " ns");
            for (boolean time : primitives.isEmpty() ? new boolean[0] : new boolean[] {false, true}) {
                if ((time ? timed : scored).length == 0) {
                    continue;
                }
                ChainedOptionsBuilder o = JmhOptions.of(time ? TIMED : SCORED, c.quick()).threads(t)
                        .param("primitive", primitives.toArray(String[]::new)).param("line", "shared", "private")
                        .param("gapNs", time ? timed : scored);
                new Runner(JmhOptions.toJson(o, file(c.raw(), time ? timedPrefix(prefix) : prefix, r, t)).build()).run();
            }
            if (rhythm != null) {
                ChainedOptionsBuilder o = JmhOptions.of(TIMED, c.quick()).threads(t).param("primitive", LineCost.VISIT_PRIMITIVE)
                        .param("line", "shared", "private").param("gapNs", Long.toString(rhythm[0]))
                        .param("userGapNs", Long.toString(rhythm[1]));
                new Runner(JmhOptions.toJson(o, file(c.raw(), visitsPrefix(prefix), r, t)).build()).run();
            }
        });
    }

    /** The costs a run measured with {@link #run} under {@code prefix}, broken files passed to {@code broken}. */
    public static LineCost read(Path fixRaw, String prefix, java.util.function.Consumer<lab.analysis.MalformedResultException> broken)
            throws java.io.IOException {
        return LineCost.of(JmhSweep.read(fixRaw, prefix, broken), JmhSweep.read(fixRaw, timedPrefix(prefix), broken),
                JmhSweep.read(fixRaw, visitsPrefix(prefix), broken), PROBES);
    }

    /** One round and thread count's file of the sweep. */
    public static Path file(Path raw, String prefix, int round, int threads) {
        return raw.resolve(prefix + "-r" + round + "-t" + threads + ".json");
    }
}
