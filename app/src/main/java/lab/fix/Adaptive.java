package lab.fix;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;
import lab.analysis.JmhSweep;
import lab.analysis.estimate.AdaptiveLog;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.estimate.Stein;
import lab.analysis.estimate.Verdict;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * Adaptive rounds for a fix's headline cell, by Stein's two-stage design ({@link Stein}): after
 * the run's rounds, {@code pair} adds rounds of the headline's trial alone (its variants and the A/A
 * copy, in the balanced random order of {@link Trials}, balanced over the added rounds by
 * themselves) until the pilot has {@link Stein#PILOT} rounds; the pilot's spread of the headline
 * ratio then fixes how many rounds in all the design needs for a half-width of
 * {@code ln(1 + M) / 2} at the run's margin M ({@link Verdict#target}), and that many are added,
 * unless the time budget or the round limit ends first. Nothing after the pilot looks at the
 * figures: the count is the pilot's, so the interval (the pilot's spread on its degrees of
 * freedom, {@link Estimator#of(Map, java.util.Set)}) covers as it says, and a verdict cannot be
 * reached by stopping when the figures happen to look settled. Written to
 * {@code raw/<fix>/adaptive.json} ({@link AdaptiveLog}), with the interval after each round. A quick
 * run spends its budget here, on the figure the first screen shows, not on one round more of every
 * cell.
 */
public final class Adaptive {
    private Adaptive() {}

    /**
     * Seconds of headline rounds a quick and a full run may add, and the most rounds in all. A quick
     * run's 30 s holds about 3 headline rounds of part-acct's or dm-css-ref's calibrated cell on 2
     * cores and 2 of thin-bufio-lock's (a round took 9-11 s and 20 s in ./lab demo on a fresh
     * clone, 2026-12-04; zram-init-lock's 4 s), so a headline gets 3 to 4 rounds in all: the fewest
     * that give an interval, within ./lab demo's 20 minutes (at 45 s the demo took 20.7 min with
     * the lab kernel cached). It was 240 s, then 90 s, then 45 s.
     */
    static final long QUICK_BUDGET_S = 30;
    static final long FULL_BUDGET_S = 900;

    /** The headline rounds' budget in seconds: {@code asked} (pair's --headline-budget), else the default of a quick or full run. */
    public static long budget(Long asked, boolean quick) {
        return asked != null ? asked : quick ? QUICK_BUDGET_S : FULL_BUDGET_S;
    }
    static final int QUICK_MAX_ROUNDS = 24;
    static final int FULL_MAX_ROUNDS = 24;

    /**
     * The pilot's rounds, quick and full, fixed before any is run. More pilot rounds give the
     * interval more degrees of freedom (t(0.975) is 4.30 on 2, 3.18 on 3, 2.36 on 7): a quick run's
     * budget holds about 4 headline rounds in all, so its pilot is those 4 (its interval is then a
     * plain t over them). A full run's 8 (its own 3 and 5 added) cost no more rounds on average
     * than a pilot of 5 at a per-round log spread of 0.01 (8.6 against 8.8: the wider t of a small
     * pilot asks for more rounds after it), and its spread is steadier where the rounds' noise is
     * heavy-tailed: with t3 noise at every level a pilot of 5 covered 92.7% at a spread of 0.03, a
     * pilot of 8 94.1% ({@link CoverageSim}, 2000 runs each, 2026-12-07).
     */
    static final int QUICK_PILOT = 4;
    static final int FULL_PILOT = 8;

    /**
     * The headline's cell: its trial (as in rounds.tsv) and file prefix, thread count, the
     * variants of one round (base, candidate, the A/A copy and any the table needs beside them),
     * the param they are, the other params that pick the cell, the ratio's base and candidate
     * (score(base) / score(cand)), the A/A's two, and JMH's options for one variant.
     */
    public record Cell(String trial, String prefix, int threads, String param, List<String> variants, Map<String, String> fixed,
                       String base, String cand, String aaBase, String aaCopy,
                       Function<String, ChainedOptionsBuilder> options, IntFunction<Path> file) {}

    /** What runs one added round of the headline cell: its number, and its place among the added rounds (for their order). */
    public interface RoundRunner {
        void run(int round, int orderRound) throws Exception;
    }

    /**
     * The design's bounds: the run's own rounds before it, the pilot's size (rounds in all, the
     * run's own among them), the margin, the time budget (seconds), the round limit, the clock (ns)
     * that spends the budget, and where progress lines go.
     */
    public record Bounds(int ownRounds, int pilot, double margin, long budgetS, int maxRounds, java.util.function.LongSupplier clock,
                         java.io.PrintStream progress) {
        /** A quick or full run's bounds: its margin, pilot, round limit, and {@code budgetS}. */
        public static Bounds of(int ownRounds, boolean quick, long budgetS, java.util.function.LongSupplier clock, java.io.PrintStream progress) {
            return new Bounds(ownRounds, quick ? QUICK_PILOT : FULL_PILOT, Verdict.target(quick), budgetS,
                    Math.max(ownRounds, quick ? QUICK_MAX_ROUNDS : FULL_MAX_ROUNDS), clock, progress);
        }
    }

    /** Adds headline rounds after round {@code c.rounds()}, as the class says. */
    public static void run(Pairing.Ctx c, Cell cell) throws Exception {
        Bounds b = Bounds.of(c.rounds(), c.quick(), c.headlineBudgetS(), System::nanoTime, c.progress());
        run(c.raw(), cell, b, (r, order) -> Trials.run(c, cell.trial(), r, order, cell.threads(), cell.variants(), cell.options(),
                cell.file().apply(r)));
    }

    /**
     * The design on the headline cell in {@code raw}, its rounds run by {@code runner}: the pilot
     * first (rounds added until {@link Stein#PILOT}), then the rounds the pilot's spread asks for,
     * each only while the budget and the limit allow; writes {@code adaptive.json}.
     */
    public static AdaptiveLog run(Path raw, Cell cell, Bounds b, RoundRunner runner) throws Exception {
        double h = Stein.halfWidth(b.margin());
        long t0 = b.clock().getAsLong();
        List<AdaptiveLog.Round> log = new ArrayList<>();
        Figures f = Figures.read(raw, cell);
        int pilotSize = Math.max(Math.max(Stein.PILOT, b.pilot()), f.ratio().size());
        java.util.SortedSet<Integer> pilot = new java.util.TreeSet<>(f.ratio().keySet());
        Integer planned = null;
        Double s0 = null;
        String stopped;
        int r = b.ownRounds();
        while (true) {
            if (pilot.size() >= pilotSize && planned == null) {
                s0 = sdOfLogs(f.ratio(), pilot);
                planned = Stein.rounds(s0, pilot.size(), f.ratio().size(), h);
            }
            double elapsed = (b.clock().getAsLong() - t0) / 1e9;
            stopped = planned != null && f.ratio().size() >= planned ? AdaptiveLog.PLANNED
                    : r + 1 > b.maxRounds() ? AdaptiveLog.LIMIT : elapsed >= b.budgetS() ? AdaptiveLog.BUDGET : null;
            if (stopped != null) {
                break;
            }
            r++;
            long s = b.clock().getAsLong();
            b.progress().printf("lab: %s headline round %d (%s; at most %d, %d s budget left), %d thread(s)%n", raw.getFileName(), r,
                    planned == null ? "pilot " + (pilot.size() + 1) + " of " + pilotSize : "round " + (f.ratio().size() + 1) + " of "
                            + planned + " the pilot asked for", b.maxRounds(), Math.max(0, b.budgetS() - (long) elapsed), cell.threads());
            runner.run(r, r - b.ownRounds());
            f = Figures.read(raw, cell);
            if (planned == null && f.ratio().containsKey(r)) {
                pilot.add(r);
            }
            Estimate e = Estimator.of(f.ratio(), pilot);
            Estimate aa = Estimator.of(f.aa(), pilot);
            log.add(new AdaptiveLog.Round(r, e == null ? null : e.json(), aa == null ? null : aa.json(),
                    e == null || !e.hasInterval() ? null : e.halfWidth(), (b.clock().getAsLong() - s) / 1e9));
        }
        Estimate e = Estimator.of(f.ratio(), pilot);
        Estimate aa = Estimator.of(f.aa(), pilot);
        AdaptiveLog out = new AdaptiveLog(cell.trial(), cell.threads(), b.margin(), b.budgetS(), b.maxRounds(), List.copyOf(pilot), s0,
                s0 == null ? null : pilot.size() - 1, h, planned, log, stopped);
        b.progress().printf("lab: %s headline: %s after %d round(s) (%s): %s%n", raw.getFileName(), e == null ? "n/a" : e.format(3),
                f.ratio().size(), stopped.equals(AdaptiveLog.PLANNED) ? "the " + planned + " rounds the pilot asked for"
                        : stopped.equals(AdaptiveLog.BUDGET) ? "time budget of " + b.budgetS() + " s spent"
                        : "round limit " + b.maxRounds(), e == null ? "no figure" : Verdict.words(e, aa, b.margin()));
        out.write(raw);
        return out;
    }

    /** The standard deviation of the logs of {@code per}'s values in {@code rounds}. */
    private static double sdOfLogs(Map<Integer, Double> per, java.util.Set<Integer> rounds) {
        double[] x = per.entrySet().stream().filter(e -> rounds.contains(e.getKey())).mapToDouble(e -> Math.log(e.getValue())).toArray();
        double m = java.util.Arrays.stream(x).average().orElse(0);
        double ss = 0;
        for (double v : x) {
            ss += (v - m) * (v - m);
        }
        return x.length < 2 ? 0 : Math.sqrt(ss / (x.length - 1));
    }

    /** The headline cell's per-round ratio {@code score(base) / score(cand)} and A/A, from the rounds written so far. */
    record Figures(Map<Integer, Double> ratio, Map<Integer, Double> aa) {
        static Figures read(Path raw, Cell cell) throws IOException {
            JmhSweep s = JmhSweep.read(raw, cell.prefix(), e -> {});
            return new Figures(perRound(s, cell, cell.base(), cell.cand()), perRound(s, cell, cell.aaBase(), cell.aaCopy()));
        }

        private static Map<Integer, Double> perRound(JmhSweep s, Cell cell, String base, String cand) {
            Map<Integer, Double> b = s.scoresByRound(key(cell, base), cell.threads());
            Map<Integer, Double> c = s.scoresByRound(key(cell, cand), cell.threads());
            Map<Integer, Double> out = new java.util.TreeMap<>();
            b.forEach((round, x) -> {
                Double y = c.get(round);
                if (y != null) {
                    out.put(round, x / y);
                }
            });
            return out;
        }
    }

    private static Map<String, String> key(Cell cell, String v) {
        Map<String, String> k = new HashMap<>(cell.fixed());
        k.put(cell.param(), v);
        return k;
    }
}
