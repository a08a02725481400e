package lab.notebook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import lab.analysis.MalformedResultException;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.parse.LabAb;
import lab.analysis.parse.PerfLockContention;
import lab.analysis.parse.Tsv;
import lab.results.RunDir;

/**
 * The kernel's own contention on a switched lock, counted: the lab-kernel A/B's traced trials
 * ({@code raw/<fix>/lab-kernel/lab-lock.tsv}, one line a trial run once more under
 * {@code perf lock record}, its {@code perf lock contention} table in {@code lock/}; kernel/ab-guest.sh
 * traced_trial). The lock is the one the fix's patch names ({@code lab-ab.txt}'s {@code lock} line:
 * perf's type, then the callers perf names for it); its rows are those callers' rows.
 *
 * <p>Per count N and variant, over rounds (the boot the unit where the A/B booted more than once):
 * contentions per I/O and wait (ns, wall: contention_begin to contention_end) per I/O at the lock's
 * callers, every other caller's contentions per I/O, and the traced trial's IOPS over the timed
 * trial's of the same round, count and variant (what the events cost when on, on this workload).
 * Between the first and the last count, per round: the added contentions and the added wait over
 * the added operations (the switch's counter over the I/Os): how often an added acquisition was
 * contended, and what wait each added acquisition brought; their means with Student's t intervals.
 * perf's times carry three significant digits; its counts are exact.
 */
public final class LabKernelContention {
    static final String TSV = "lab-lock.tsv";
    static final List<String> COLUMNS = List.of("count", "round", "variant", "value", "boot", "ios", "runtime_s", "ops_delta", "table");

    /** One traced trial: its counts at the lock's callers and elsewhere, per I/O. */
    record Trial(int count, int round, String variant, int boot, long ios, double opsPerIo, double contendedPerIo, double waitNsPerIo,
                 double otherContendedPerIo, double iops, long ops, long contended) {}

    /** A count and variant over rounds. */
    public record Cell(int count, String variant, Estimate contendedPerIo, Estimate waitNsPerIo, Estimate waitPerContentionNs,
                       Estimate otherContendedPerIo, Estimate opsPerIo, Estimate tracedOverTimed) {}

    /**
     * Between the first and the last count, of {@code variant}: the added contentions per added
     * operation ({@code frequency}), the added wait per added operation ({@code waitPerOpNs}), and
     * the added wait per added contention ({@code waitPerContentionNs}: what a contention cost;
     * null where no round added any), each taken per round, then over rounds. Pooled over every
     * round at the last count: the switch's {@code acquisitions} and their {@code contentions}, and
     * where there were none, {@code noneBound}: the 95% upper bound on the chance that an
     * acquisition is contended that none in so many allows (3 / acquisitions, the rule of three);
     * NaN where some were.
     */
    public record Added(String variant, int from, int to, Estimate frequency, Estimate waitPerOpNs, Estimate waitPerContentionNs,
                        long acquisitions, long contentions, double noneBound) {}

    /**
     * One round's step from a lower count to a higher one, per I/O: the added contentions and the
     * added wait over the added acquisitions ({@code dx}), and the added wait over the added
     * contentions ({@code perContention}, NaN where none were added). The kernel's split and the
     * model's ({@link ModelContention#estimateAdded}) both take theirs from it.
     */
    record Step(double frequency, double waitPerOp, double perContention) {
        /** The step from ({@code opsA}, {@code contA}, {@code waitA}) to the B's; null where the acquisitions did not grow. */
        static Step of(double opsA, double contA, double waitA, double opsB, double contB, double waitB) {
            double dx = opsB - opsA;
            if (!(dx > 0)) {
                return null;
            }
            double dc = contB - contA;
            double dw = waitB - waitA;
            return new Step(dc / dx, dw / dx, dc > 0 ? dw / dc : Double.NaN);
        }
    }

    private final String type;
    private final Set<String> callers;
    private final List<Cell> cells;
    private final List<Added> added;
    private final Map<String, String> facts;

    private LabKernelContention(String type, Set<String> callers, List<Cell> cells, List<Added> added, Map<String, String> facts) {
        this.type = type;
        this.callers = callers;
        this.cells = cells;
        this.added = added;
        this.facts = facts;
    }

    /**
     * The traced trials of {@code dir} (a fix's lab-kernel folder); empty without {@code lab-lock.tsv}
     * or a {@code lock} line, or when a file is malformed (a gap of {@code run} names it).
     */
    public static Optional<LabKernelContention> read(RunDir run, Path dir, LabAb ab) throws IOException {
        Path tsv = dir.resolve(TSV);
        if (!Files.isRegularFile(tsv)) {
            return Optional.empty();
        }
        Map<String, String> facts = KernelRuns.readEnv(dir.resolve(LabAb.FACTS));
        String lock = facts.get("lock");
        if (lock == null || lock.isBlank()) {
            run.gap(dir.resolve(LabAb.FACTS), "no lock line beside " + TSV + " (the patch's Lab-Lock header names the lock)");
            return Optional.empty();
        }
        String[] words = lock.trim().split(" +");
        Set<String> callers = new LinkedHashSet<>(List.of(words).subList(1, words.length));
        Map<String, Double> timed = new TreeMap<>();
        ab.trials().forEach(t -> timed.put(t.count() + "/" + t.round() + "/" + t.variant(), t.metric()));
        List<Trial> trials = new ArrayList<>();
        try {
            for (Tsv.Row r : Tsv.read(tsv, COLUMNS)) {
                long ios = r.count("ios");
                if (ios <= 0) {
                    throw r.bad("ios", "must be > 0");
                }
                PerfLockContention table = PerfLockContention.read(dir.resolve(r.text("table")));
                var at = table.sumAt(callers);
                long all = table.rows().stream().mapToLong(PerfLockContention.Row::contended).sum();
                double runtime = r.number("runtime_s");
                trials.add(new Trial(r.integer("count"), r.integer("round"), r.text("variant"), r.integer("boot"), ios,
                        r.number("ops_delta") / ios, at.contendedPerIo(ios), at.waitNsPerIo(ios), (all - at.contended()) / (double) ios,
                        runtime > 0 ? ios / runtime : Double.NaN, Math.round(r.number("ops_delta")), at.contended()));
            }
        } catch (Tsv.Malformed e) {
            run.gap(e.file(), "line " + e.line() + ": " + e.problem());
            return Optional.empty();
        } catch (MalformedResultException e) {
            run.gap(e.file(), e.problem());
            return Optional.empty();
        }
        if (trials.isEmpty()) {
            run.gap(tsv, "no traced trials");
            return Optional.empty();
        }
        return Optional.of(new LabKernelContention(words[0], callers, estimateCells(trials, timed), estimateAdded(trials), facts));
    }

    private static List<Cell> estimateCells(List<Trial> trials, Map<String, Double> timed) {
        Map<String, List<Trial>> by = new TreeMap<>();
        trials.forEach(t -> by.computeIfAbsent(String.format("%08d/%s", t.count(), t.variant()), k -> new ArrayList<>()).add(t));
        List<Cell> cells = new ArrayList<>();
        by.values().forEach(ts -> {
            Trial first = ts.get(0);
            List<Double> ratio = new ArrayList<>();
            Map<Integer, List<Double>> perContention = new TreeMap<>();
            for (Trial t : ts) {
                Double base = timed.get(t.count() + "/" + t.round() + "/" + t.variant());
                if (base != null && base > 0 && t.iops() > 0) {
                    ratio.add(t.iops() / base);
                }
                if (t.contendedPerIo() > 0) {
                    perContention.computeIfAbsent(t.boot(), b -> new ArrayList<>()).add(t.waitNsPerIo() / t.contendedPerIo());
                }
            }
            cells.add(new Cell(first.count(), first.variant(), estimateMean(ts, Trial::contendedPerIo), estimateMean(ts, Trial::waitNsPerIo),
                    perContention.isEmpty() ? null : Estimator.mean(perContention), estimateMean(ts, Trial::otherContendedPerIo),
                    estimateMean(ts, Trial::opsPerIo), ratio.isEmpty() ? null : Estimator.of(ratio)));
        });
        return cells;
    }

    private static Estimate estimateMean(List<Trial> ts, java.util.function.ToDoubleFunction<Trial> f) {
        Map<Integer, List<Double>> byBoot = new TreeMap<>();
        ts.forEach(t -> byBoot.computeIfAbsent(t.boot(), b -> new ArrayList<>()).add(f.applyAsDouble(t)));
        return Estimator.mean(byBoot);
    }

    /** Per variant, the added contentions and wait per added operation from the first count to the last, per round. */
    private static List<Added> estimateAdded(List<Trial> trials) {
        List<Added> out = new ArrayList<>();
        int from = trials.stream().mapToInt(Trial::count).min().orElseThrow();
        int to = trials.stream().mapToInt(Trial::count).max().orElseThrow();
        if (from == to) {
            return out;
        }
        for (String v : List.of(LabAb.BEFORE, LabAb.AFTER)) {
            Map<Integer, Trial> lo = new TreeMap<>();
            Map<Integer, Trial> hi = new TreeMap<>();
            for (Trial t : trials) {
                if (t.variant().equals(v) && t.count() == from) {
                    lo.put(t.round(), t);
                } else if (t.variant().equals(v) && t.count() == to) {
                    hi.put(t.round(), t);
                }
            }
            Map<Integer, List<Double>> freq = new TreeMap<>();
            Map<Integer, List<Double>> wait = new TreeMap<>();
            Map<Integer, List<Double>> each = new TreeMap<>();
            lo.forEach((round, a) -> {
                Trial b = hi.get(round);
                Step st = b == null ? null
                        : Step.of(a.opsPerIo(), a.contendedPerIo(), a.waitNsPerIo(), b.opsPerIo(), b.contendedPerIo(), b.waitNsPerIo());
                if (st != null) {
                    freq.computeIfAbsent(a.boot(), x -> new ArrayList<>()).add(st.frequency());
                    wait.computeIfAbsent(a.boot(), x -> new ArrayList<>()).add(st.waitPerOp());
                    if (!Double.isNaN(st.perContention())) {
                        each.computeIfAbsent(a.boot(), x -> new ArrayList<>()).add(st.perContention());
                    }
                }
            });
            if (!freq.isEmpty()) {
                long ops = hi.values().stream().mapToLong(Trial::ops).sum();
                long contended = hi.values().stream().mapToLong(Trial::contended).sum();
                out.add(new Added(v, from, to, Estimator.mean(freq), Estimator.mean(wait), each.isEmpty() ? null : Estimator.mean(each), ops,
                        contended, contended == 0 && ops > 0 ? 3.0 / ops : Double.NaN));
            }
        }
        return out;
    }

    public String type() {
        return type;
    }

    public Set<String> callers() {
        return callers;
    }

    public List<Cell> cells() {
        return cells;
    }

    public List<Added> added() {
        return added;
    }

    /** The before's added figures; null where there are none. */
    public Added addedBefore() {
        return added.stream().filter(a -> a.variant().equals(LabAb.BEFORE)).findFirst().orElse(null);
    }

    /** {@code lab-ab.txt}'s {@code traced} line: how the traced trials ran. */
    public String traced() {
        return facts.getOrDefault("traced", "?");
    }

    /** The part's summary entry. */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        m.put("callers", List.copyOf(callers));
        m.put("traced", facts.get("traced"));
        List<Object> cs = new ArrayList<>();
        for (Cell c : cells) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("n", c.count());
            x.put("variant", c.variant());
            x.put("contended_per_io", Parts.json(c.contendedPerIo()));
            x.put("wait_ns_per_io", Parts.json(c.waitNsPerIo()));
            x.put("wait_ns_per_contention", Parts.json(c.waitPerContentionNs()));
            x.put("other_contended_per_io", Parts.json(c.otherContendedPerIo()));
            x.put("ops_per_io", Parts.json(c.opsPerIo()));
            x.put("traced_over_timed", Parts.json(c.tracedOverTimed()));
            cs.add(x);
        }
        m.put("cells", cs);
        List<Object> as = new ArrayList<>();
        for (Added a : added) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("variant", a.variant());
            x.put("from_n", a.from());
            x.put("to_n", a.to());
            x.put("contentions_per_added_op", Parts.json(a.frequency()));
            x.put("wait_ns_per_added_op", Parts.json(a.waitPerOpNs()));
            x.put("wait_ns_per_added_contention", Parts.json(a.waitPerContentionNs()));
            x.put("acquisitions_at_to_n", a.acquisitions());
            x.put("contentions_at_to_n", a.contentions());
            x.put("none_bound_95", Double.isNaN(a.noneBound()) ? null : a.noneBound());
            as.add(x);
        }
        m.put("added", as);
        return m;
    }
}
