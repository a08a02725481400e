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
import lab.analysis.estimate.Verdict;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * Adaptive rounds for a fix's headline cell: after the run's rounds, {@code pair} adds rounds of
 * the headline's trial alone (its variants and the A/A copy, in the balanced random order of
 * {@link Trials}, balanced over the added rounds by themselves) until the headline ratio's 95%
 * interval is within the run's target (half-width ±5% quick, ±2% full: {@link Verdict#target}),
 * or its time budget ends, or the round limit; and writes which
 * to {@code raw/<fix>/adaptive.json} ({@link AdaptiveLog}), with the interval after each round. A quick run spends its
 * budget here, on the figure the first screen shows, not on one round more of every cell.
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
     * The headline's cell: its trial (as in rounds.tsv) and file prefix, thread count, the
     * variants of one round (base, candidate, the A/A copy and any the table needs beside them),
     * the param they are, the other params that pick the cell, the ratio's base and candidate
     * (score(base) / score(cand)), the A/A's two, and JMH's options for one variant.
     */
    public record Cell(String trial, String prefix, int threads, String param, List<String> variants, Map<String, String> fixed,
                       String base, String cand, String aaBase, String aaCopy,
                       Function<String, ChainedOptionsBuilder> options, IntFunction<Path> file) {}

    /** Adds headline rounds after round {@code c.rounds()}, as the class says. */
    public static void run(Pairing.Ctx c, Cell cell) throws Exception {
        double target = Verdict.target(c.quick());
        long budget = c.headlineBudgetS();
        int max = Math.max(c.rounds(), c.quick() ? QUICK_MAX_ROUNDS : FULL_MAX_ROUNDS);
        long t0 = System.nanoTime();
        List<AdaptiveLog.Round> log = new ArrayList<>();
        Estimate e = ratio(c.raw(), cell, cell.base(), cell.cand());
        String stopped;
        for (int r = c.rounds() + 1; ; r++) {
            stopped = stop(e, target, r, max, (System.nanoTime() - t0) / 1e9, budget);
            if (stopped != null) {
                break;
            }
            long s = System.nanoTime();
            c.progress().printf("lab: %s headline round %d (at most %d, %d s budget left), %d thread(s): interval %s, target %s%n",
                    c.raw().getFileName(), r, max, Math.max(0, budget - (s - t0) / 1_000_000_000L), cell.threads(),
                    e == null ? "n/a" : e.format(3), Verdict.pct(target));
            Trials.run(c, cell.trial(), r, r - c.rounds(), cell.threads(), cell.variants(), cell.options(), cell.file().apply(r));
            e = ratio(c.raw(), cell, cell.base(), cell.cand());
            Estimate aa = ratio(c.raw(), cell, cell.aaBase(), cell.aaCopy());
            log.add(new AdaptiveLog.Round(r, e == null ? null : e.json(), aa == null ? null : aa.json(),
                    e == null || !e.hasInterval() ? null : e.halfWidth(), (System.nanoTime() - s) / 1e9));
        }
        c.progress().printf("lab: %s headline: %s after %d round(s) (%s)%n", c.raw().getFileName(), e == null ? "n/a" : e.format(3),
                e == null ? 0 : e.rounds(), stopped.equals(AdaptiveLog.REACHED) ? Verdict.words(e, target)
                        : stopped.equals(AdaptiveLog.BUDGET) ? "time budget of " + budget + " s spent" : "round limit " + max);
        new AdaptiveLog(cell.trial(), cell.threads(), target, budget, max, log, stopped).write(c.raw());
    }

    /**
     * Whether to add round {@code next}: null to add it; else why not: the interval's half-width
     * within {@code target} (three rounds at least, so that an interval means something), the round
     * limit {@code max}, or the budget spent. The rule is the interval's width, not its verdict:
     * stopping at the first round whose interval leaves out 1 would, over many runs, find effects
     * that are not there (optional stopping); a width fixed in advance does not look at where the
     * interval lies.
     */
    static String stop(Estimate e, double target, int next, int max, double elapsedS, long budgetS) {
        if (e != null && e.rounds() >= 3 && e.halfWidth() <= target) {
            return AdaptiveLog.REACHED;
        }
        if (next > max) {
            return AdaptiveLog.LIMIT;
        }
        return elapsedS >= budgetS ? AdaptiveLog.BUDGET : null;
    }

    /** The headline cell's ratio {@code score(base) / score(cand)} over the rounds written so far. */
    static Estimate ratio(Path raw, Cell cell, String base, String cand) throws IOException {
        JmhSweep s = JmhSweep.read(raw, cell.prefix(), e -> {});
        return Estimator.ratio(s.scoresByRound(key(cell, base), cell.threads()), s.scoresByRound(key(cell, cand), cell.threads()));
    }

    private static Map<String, String> key(Cell cell, String v) {
        Map<String, String> k = new HashMap<>(cell.fixed());
        k.put(cell.param(), v);
        return k;
    }
}
