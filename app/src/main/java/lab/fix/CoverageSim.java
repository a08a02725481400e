package lab.fix;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.estimate.Verdict;

/**
 * The lab's intervals and verdicts measured on simulated runs whose truth is known, through the
 * lab's own path: JMH result files written as JMH writes them ({@code sim-rR.json}) into a run's
 * raw folder, the run's own rounds first, then the headline's adaptive rounds chosen by
 * {@link Adaptive} (Stein's design, its budget spent on a simulated clock), the sweep read back by
 * {@link SweepEstimates#read} (which takes the design's pilot from {@code adaptive.json}), and the
 * verdict of {@link Verdict}, gated by the A/A. Rounds nested in boots (a lab kernel's guest booted
 * again) are simulated too and estimated by {@link Estimator#of(Map)}, the boot the unit.
 *
 * <p>Noise at every level, multiplicative: a drift per round shared by the variants (the paired
 * ratio cancels it), a round × variant effect, a fork effect and per-iteration noise, each normal
 * or Student's t on 3 degrees of freedom scaled to the same variance (heavy-tailed); the levels'
 * shares of the per-round log ratio's variance are 50%, 30% and 20%, so {@code spread} is that
 * ratio's standard deviation per round. Three variants per round: the base (true time
 * {@code truth} × 100 ns), the candidate (100 ns) and the base's A/A copy, so the headline ratio's
 * truth is {@code truth} and the A/A's is 1.
 *
 * <p>What it measures per setting: how often the headline's interval covers its truth, how often
 * the A/A's leaves out 1 (a false change), how often the headline is called an effect of at least
 * M when its truth lies inside ±M (a wrong effect), the rounds used, and the verdicts. The unit test
 * ({@code SequentialCoverageTest}) runs few runs per setting; {@code ./lab coverage} runs as many as
 * asked and writes them to a run folder.
 */
public final class CoverageSim {
    private CoverageSim() {}

    static final String PREFIX = "sim";
    static final String BASE = "base";
    static final String CAND = "cand";
    static final String COPY = "base~aa";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One simulated setting: a quick or full run (its own rounds, pilot, margin, budget and limit,
     * as {@code pair} has them), the per-round log spread of the ratio, heavy tails or not, the
     * true ratio, the seconds one round takes, and the forks and iterations of a trial.
     */
    public record Setting(String name, boolean quick, double spread, boolean heavy, double truth, double roundS, int forks,
                          int iterations) {
        /** A quick run (1 own round, 1 fork) or a full one (3 own rounds, 3 forks), 5 iterations a fork. */
        public static Setting of(boolean quick, double spread, boolean heavy, double truth) {
            return new Setting(String.format(Locale.ROOT, "%s %s %.2f truth %.3f", quick ? "quick" : "full", heavy ? "t3" : "normal",
                    spread, truth), quick, spread, heavy, truth, quick ? 10 : 30, quick ? 1 : 3, 5);
        }

        int ownRounds() {
            return quick ? 1 : 3;
        }

        long budgetS() {
            return Adaptive.budget(null, quick);
        }
    }

    /** What the runs of one setting gave. */
    public record Result(Setting setting, int runs, int covered, int aaFalse, int wrongEffect, int gatedOut, double meanRounds,
                         Map<String, Integer> verdicts) {
        public double coverage() {
            return (double) covered / runs;
        }

        /** How often the A/A's interval left out 1: the false-change rate of a figure whose truth is 1. */
        public double aaFalseRate() {
            return (double) aaFalse / runs;
        }

        /** How often the headline was called an effect of at least M though its truth lies inside ±M. */
        public double wrongEffectRate() {
            return (double) wrongEffect / runs;
        }

        public String line() {
            return String.format(Locale.ROOT, "%s\t%d\t%.4f\t%.4f\t%.4f\t%.2f\t%s", setting.name(), runs, coverage(), aaFalseRate(),
                    wrongEffectRate(), meanRounds, verdicts);
        }
    }

    /** The tab-separated header of {@link Result#line}. */
    public static final String HEADER = "setting\truns\tcoverage\taa_false_change\twrong_effect\tmean_rounds\tverdicts";

    /** {@code runs} simulated runs of {@code s}, seeded, in {@code scratch} (emptied before each). */
    public static Result run(Setting s, int runs, long seed, Path scratch) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        double m = Verdict.target(s.quick());
        int covered = 0;
        int aaFalse = 0;
        int wrong = 0;
        int gated = 0;
        long rounds = 0;
        Map<String, Integer> verdicts = new LinkedHashMap<>();
        Adaptive.Cell cell = new Adaptive.Cell(PREFIX, PREFIX, 2, "variant", List.of(BASE, CAND, COPY), Map.of(), BASE, CAND, BASE, COPY,
                v -> null, r -> null);
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        for (int i = 0; i < runs; i++) {
            Path raw = Files.createDirectories(scratch);
            clear(raw);
            for (int r = 1; r <= s.ownRounds(); r++) {
                writeRound(raw, r, s, rnd);
            }
            long[] clock = {0};
            Adaptive.Bounds b = Adaptive.Bounds.of(s.ownRounds(), s.quick(), s.budgetS(), () -> clock[0], quiet);
            Adaptive.run(raw, cell, b, (r, order) -> {
                writeRound(raw, r, s, rnd);
                clock[0] += (long) (s.roundS() * 1e9);
            });
            SweepEstimates est = SweepEstimates.read(raw, PREFIX, e -> {
                throw new IllegalStateException(e.getMessage());
            });
            Estimate ratio = est.ratio(Map.of("variant", BASE), Map.of("variant", CAND), 2);
            Estimate aa = est.ratio(Map.of("variant", BASE), Map.of("variant", COPY), 2);
            rounds += ratio.rounds();
            if (ratio.hasInterval() && ratio.lo() <= s.truth() && s.truth() <= ratio.hi()) {
                covered++;
            }
            if (aa.excludes(1)) {
                aaFalse++;
            }
            Verdict v = Verdict.of(ratio, aa, m);
            verdicts.merge(v.code, 1, Integer::sum);
            if (v == Verdict.CONTROL_FAILED) {
                gated++;
            }
            if (v == Verdict.EFFECT && Math.abs(s.truth() - 1) < m) {
                wrong++;
            }
        }
        return new Result(s, runs, covered, aaFalse, wrong, gated, (double) rounds / runs, verdicts);
    }

    private static void clear(Path dir) throws IOException {
        try (Stream<Path> f = Files.list(dir)) {
            for (Path p : f.toList()) {
                Files.delete(p);
            }
        }
    }

    /** Round {@code r}'s JMH file: the three variants' results, each its forks' iterations. */
    static void writeRound(Path raw, int r, Setting s, SplittableRandom rnd) throws IOException {
        double drift = 0.1 * gauss(rnd);
        // shares of the per-round log ratio's variance: round x variant 50%, fork 30%, iteration 20%;
        // the ratio's variance is twice a variant's (two independent variants)
        double var = s.spread() * s.spread() / 2;
        double sdRound = Math.sqrt(0.5 * var);
        double sdFork = Math.sqrt(0.3 * var * s.forks());
        double sdIter = Math.sqrt(0.2 * var * s.forks() * s.iterations());
        List<Object> results = new ArrayList<>();
        for (String v : List.of(BASE, CAND, COPY)) {
            double ns = 100 * (v.equals(CAND) ? 1 : s.truth());
            double round = sdRound * noise(rnd, s.heavy());
            List<List<Double>> raw1 = new ArrayList<>();
            double sum = 0;
            for (int f = 0; f < s.forks(); f++) {
                double fork = sdFork * noise(rnd, s.heavy());
                List<Double> it = new ArrayList<>();
                for (int i = 0; i < s.iterations(); i++) {
                    double x = ns * Math.exp(drift + round + fork + sdIter * noise(rnd, s.heavy()));
                    it.add(x);
                    sum += x;
                }
                raw1.add(it);
            }
            results.add(entry(v, sum / (s.forks() * s.iterations()), raw1, s.forks()));
        }
        Files.writeString(raw.resolve(PREFIX + "-r" + r + ".json"), JSON.writeValueAsString(results));
    }

    private static Map<String, Object> entry(String variant, double score, List<List<Double>> rawData, int forks) {
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("score", score);
        pm.put("scoreError", "NaN");
        pm.put("scoreUnit", "ns/op");
        pm.put("rawData", rawData);
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("jmhVersion", "1.37");
        e.put("benchmark", "lab.sim.Headline.io");
        e.put("mode", "avgt");
        e.put("threads", 2);
        e.put("forks", forks);
        e.put("params", Map.of("variant", variant));
        e.put("primaryMetric", pm);
        e.put("secondaryMetrics", Map.of());
        return e;
    }

    /**
     * Rounds nested in boots: {@code boots} boots of {@code roundsPerBoot} rounds, a boot effect
     * and a round effect on the log ratio (each {@code spread} standard deviation, normal or t3),
     * estimated with the boot as the unit; the share of runs whose interval covered {@code truth},
     * and of those with an interval at all.
     */
    public static double[] nestedCoverage(int boots, int roundsPerBoot, double spread, boolean heavy, double truth, int runs, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int covered = 0;
        int withInterval = 0;
        for (int i = 0; i < runs; i++) {
            Map<Integer, List<Double>> byBoot = new java.util.TreeMap<>();
            for (int b = 1; b <= boots; b++) {
                double boot = spread * noise(rnd, heavy);
                List<Double> rs = new ArrayList<>();
                for (int r = 0; r < roundsPerBoot; r++) {
                    rs.add(truth * Math.exp(boot + spread * noise(rnd, heavy)));
                }
                byBoot.put(b, rs);
            }
            Estimate e = Estimator.of(byBoot);
            if (e.hasInterval()) {
                withInterval++;
                if (e.lo() <= truth && truth <= e.hi()) {
                    covered++;
                }
            }
        }
        return new double[] {withInterval == 0 ? Double.NaN : (double) covered / withInterval, (double) withInterval / runs};
    }

    /** A standard normal, or Student's t on 3 degrees of freedom scaled to unit variance. */
    static double noise(SplittableRandom rnd, boolean heavy) {
        if (!heavy) {
            return gauss(rnd);
        }
        double z = gauss(rnd);
        double chi = 0;
        for (int k = 0; k < 3; k++) {
            double g = gauss(rnd);
            chi += g * g;
        }
        return z / Math.sqrt(chi / 3) / Math.sqrt(3);
    }

    private static double gauss(SplittableRandom rnd) {
        double u = rnd.nextDouble();
        double v = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
    }
}
