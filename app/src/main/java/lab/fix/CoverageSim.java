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
import lab.analysis.estimate.Stein;
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
                          int iterations) implements Case {
        /** A quick run (1 own round, 1 fork) or a full one (3 own rounds, 3 forks), 5 iterations a fork. */
        public static Setting of(boolean quick, double spread, boolean heavy, double truth) {
            return new Setting(String.format(Locale.ROOT, "%s %s %.3f truth %.3f", design(quick), noise(heavy), spread, truth), quick, spread,
                    heavy, truth, quick ? 10 : 30, quick ? 1 : 3, 5);
        }

        /** Its line of {@code raw/coverage.tsv}: {@code runs} simulated runs from {@code seed} ({@link #run}). */
        @Override
        public Row row(int runs, long seed, Path scratch) throws Exception {
            return run(this, runs, seed, scratch).row(seed);
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

        /** The verdicts' counts in {@link Verdict}'s order, every verdict named (0 where none was given). */
        public Map<String, Integer> verdictCounts() {
            Map<String, Integer> out = new LinkedHashMap<>();
            for (Verdict v : Verdict.values()) {
                out.put(v.code, verdicts.getOrDefault(v.code, 0));
            }
            return out;
        }

        public String line() {
            return String.format(Locale.ROOT, "%s\t%d\t%.4f\t%.4f\t%.4f\t%.2f\t%s", setting.name(), runs, coverage(), aaFalseRate(),
                    wrongEffectRate(), meanRounds, verdictCounts());
        }

        /** Its line of {@code raw/coverage.tsv} ({@link #ROW_HEADER}), run from {@code seed}. */
        Row row(long seed) {
            double[] cov = wilson(covered, runs);
            double[] aa = wilson(aaFalse, runs);
            String tsv = String.format(Locale.ROOT, "%s\t%.4f\t%.4f\t%.4f\t%.4f\t%s\t%s\t%.3f\t%.3f\t%d", line(), cov[0], cov[1], aa[0],
                    aa[1], design(setting.quick()), noise(setting.heavy()), setting.spread(), setting.truth(), seed);
            String words = String.format(Locale.ROOT, "coverage %.4f [%.4f–%.4f], A/A false change %.4f [%.4f–%.4f], wrong effect %.4f,"
                    + " mean rounds %.2f", coverage(), cov[0], cov[1], aaFalseRate(), aa[0], aa[1], wrongEffectRate(), meanRounds);
            return new Row(tsv, words);
        }
    }

    /** The tab-separated header of {@link Result#line}. */
    public static final String HEADER = "setting\truns\tcoverage\taa_false_change\twrong_effect\tmean_rounds\tverdicts";

    /**
     * The header of {@code raw/coverage.tsv}, which {@code ./lab coverage} writes and its notebook
     * reads ({@code lab.notebook.CoveragePage}, by these names): {@link #HEADER}'s columns, the 95%
     * Wilson intervals of the coverage and of the A/A's false-change rate, and what the setting is
     * (design, noise, spread, truth) with the seed its runs started from. A column that does not
     * apply to a setting (the A/A and the verdicts of rounds nested in boots) holds {@link #NA}.
     */
    public static final String ROW_HEADER = HEADER + "\tcoverage_lo\tcoverage_hi\taa_false_lo\taa_false_hi\tdesign\tnoise\tspread\ttruth\tseed";

    /** What a column of {@code raw/coverage.tsv} holds where it does not apply. */
    public static final String NA = "n/a";

    /** One line of {@code raw/coverage.tsv} ({@link #ROW_HEADER}), and its figures in words for a progress line. */
    public record Row(String tsv, String words) {}

    /** One line of {@code ./lab coverage}'s grid: a setting that runs into a row of {@code raw/coverage.tsv}. */
    public interface Case {
        String name();

        /** {@code runs} simulated runs from {@code seed}, in {@code scratch} (a folder of its own). */
        Row row(int runs, long seed, Path scratch) throws Exception;
    }

    /** The per-round log spreads {@code ./lab coverage} runs the design at: the range it must hold over. */
    static final double[] SPREADS = {0.01, 0.02, 0.03, 0.045, 0.06};

    /**
     * {@code ./lab coverage}'s grid, in the order of {@code raw/coverage.tsv}: quick and full runs,
     * normal and t3 noise, at every spread of {@link #SPREADS}, the headline's truth {@code 1 + M/2}
     * (a change smaller than M, where a wrong effect can be called); the same four at a spread of
     * 0.03 with the truth 1 (no change); then rounds nested in boots, 3 and 5 boots of 3 rounds,
     * normal and t3, at the spread of {@code SequentialCoverageTest}'s nested check (the boot's
     * noise as large as the round's). Setting {@code i} (from 0) runs from seed {@code seed + i}.
     */
    public static List<Case> grid() {
        List<Case> out = new ArrayList<>();
        for (boolean quick : new boolean[] {true, false}) {
            for (boolean heavy : new boolean[] {false, true}) {
                for (double spread : SPREADS) {
                    out.add(Setting.of(quick, spread, heavy, 1 + Verdict.target(quick) / 2));
                }
            }
        }
        for (boolean quick : new boolean[] {true, false}) {
            for (boolean heavy : new boolean[] {false, true}) {
                out.add(Setting.of(quick, 0.03, heavy, 1.0));
            }
        }
        for (int boots : new int[] {3, 5}) {
            for (boolean heavy : new boolean[] {false, true}) {
                out.add(new Nested(boots, 3, 0.03, heavy, 1.02));
            }
        }
        return out;
    }

    /**
     * The header of {@code raw/design.tsv}: a quick and a full run's design as the simulation runs
     * it (the run's own rounds, the pilot's rounds in all, the margin M, the headline's budget in
     * seconds, a simulated round's seconds, the round limit, forks and iterations of a trial, and
     * the log half-width the design aims at, {@link Stein#halfWidth}).
     */
    public static final String DESIGN_HEADER = "design\town_rounds\tpilot\tmargin\tbudget_s\tround_s\tmax_rounds\tforks\titerations\thalf_width";

    /** The lines of {@code raw/design.tsv} ({@link #DESIGN_HEADER}), quick then full. */
    public static List<String> designRows() {
        List<String> out = new ArrayList<>();
        for (boolean quick : new boolean[] {true, false}) {
            Setting s = Setting.of(quick, SPREADS[0], false, 1);
            Adaptive.Bounds b = Adaptive.Bounds.of(s.ownRounds(), quick, s.budgetS(), () -> 0, null);
            out.add(String.format(Locale.ROOT, "%s\t%d\t%d\t%.2f\t%d\t%.0f\t%d\t%d\t%d\t%.5f", design(quick), s.ownRounds(),
                    Math.max(Stein.PILOT, b.pilot()), b.margin(), b.budgetS(), s.roundS(), b.maxRounds(), s.forks(), s.iterations(),
                    Stein.halfWidth(b.margin())));
        }
        return out;
    }

    static String design(boolean quick) {
        return quick ? "quick" : "full";
    }

    static String noise(boolean heavy) {
        return heavy ? "t3" : "normal";
    }

    /**
     * The 95% Wilson score interval of a rate of {@code k} in {@code n} (E. B. Wilson, "Probable
     * inference, the law of succession, and statistical inference", J. Amer. Statist. Assoc. 22,
     * 1927, 209–212): unlike the normal approximation it stays within 0–1 and keeps its coverage near
     * a rate of 0 or 1, where an A/A's false-change rate lies. {@code (p + z²/2n ± z √(p(1−p)/n +
     * z²/4n²)) / (1 + z²/n)}, z the normal's 97.5% point.
     */
    static double[] wilson(int k, int n) {
        if (n < 1 || k < 0 || k > n) {
            throw new IllegalArgumentException(k + " of " + n);
        }
        double z = 1.959963984540054;
        double p = (double) k / n;
        double d = 1 + z * z / n;
        double centre = (p + z * z / (2.0 * n)) / d;
        double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
        return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
    }

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
        int[] n = nestedCounts(boots, roundsPerBoot, spread, heavy, truth, runs, seed);
        return new double[] {n[1] == 0 ? Double.NaN : (double) n[0] / n[1], (double) n[1] / runs};
    }

    /**
     * Rounds nested in boots as a line of {@code ./lab coverage}'s grid ({@link #nestedCoverage}):
     * its coverage is over the runs with an interval, which are all of them from 3 boots on.
     */
    public record Nested(int boots, int roundsPerBoot, double spread, boolean heavy, double truth) implements Case {
        @Override
        public String name() {
            return String.format(Locale.ROOT, "%s %s %.3f truth %.3f", design(), noise(heavy), spread, truth);
        }

        String design() {
            return "boots " + boots + "x" + roundsPerBoot;
        }

        @Override
        public Row row(int runs, long seed, Path scratch) {
            int[] n = nestedCounts(boots, roundsPerBoot, spread, heavy, truth, runs, seed);
            double cov = n[1] == 0 ? Double.NaN : (double) n[0] / n[1];
            double[] ci = n[1] == 0 ? new double[] {Double.NaN, Double.NaN} : wilson(n[0], n[1]);
            String tsv = String.format(Locale.ROOT, "%s\t%d\t%.4f\t%s\t%s\t%.2f\t%s\t%.4f\t%.4f\t%s\t%s\t%s\t%s\t%.3f\t%.3f\t%d", name(), runs,
                    cov, NA, NA, (double) boots * roundsPerBoot, NA, ci[0], ci[1], NA, NA, design(), noise(heavy), spread, truth, seed);
            return new Row(tsv, String.format(Locale.ROOT, "coverage %.4f [%.4f–%.4f] of %d runs with an interval", cov, ci[0], ci[1], n[1]));
        }
    }

    /** {@link #nestedCoverage}'s counts: the runs whose interval covered the truth, and those with an interval at all. */
    private static int[] nestedCounts(int boots, int roundsPerBoot, double spread, boolean heavy, double truth, int runs, long seed) {
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
        return new int[] {covered, withInterval};
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
