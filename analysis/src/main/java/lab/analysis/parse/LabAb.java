package lab.analysis.parse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A fix's switch A/B on the lab kernel as {@code lab-kernel.sh lab-ab FIX} leaves it in its
 * {@code LAB_OUT}: {@code lab-ab.tsv}, one line per trial (a count N, a round, the switch at one
 * variant; its boot of the lab kernel, where the run booted it more than once: rounds are numbered
 * across boots, so a round lies in one boot), and {@code lab-iter.tsv}, the same trials' metric
 * per 250 ms interval. Read as
 * written, with no fix's knowledge; {@code lab-ab.txt} (the run's {@code key: value} facts) is
 * the reader's to take.
 *
 * @param trials     every trial, in file order
 * @param iterations every interval, in file order (empty without {@code lab-iter.tsv})
 */
public record LabAb(List<Trial> trials, List<Iteration> iterations) {
    public static final String TRIALS = "lab-ab.tsv";
    public static final String ITERATIONS = "lab-iter.tsv";
    public static final String FACTS = "lab-ab.txt";
    /** The variants the script writes: the switch at the fix's before, at the after, the after again (A/A), the stock value. */
    public static final String BEFORE = "before";
    public static final String AFTER = "after";
    public static final String AA = "aa";
    public static final String DEFAULT = "default";

    static final List<String> TRIAL_COLUMNS = List.of("count", "round", "slot", "variant", "value", "jobs", "ios", "runtime_s",
            "metric", "task_clock_ns", "ns_per_io", "ops_delta", "extra");
    static final List<String> ITERATION_COLUMNS = List.of("count", "round", "variant", "i", "metric");

    /**
     * One trial. {@code metric}: total IOPS, or for a share the ratio writer a / writer b;
     * {@code nsPerIo}: task-clock over I/Os; {@code opsDelta}: how far the switch's operation
     * counter moved; {@code extra}: the {@code k=v;k=v} column ({@code -}: none); {@code boot}: the
     * guest boot it ran in (1 in a file without the column: one boot).
     */
    public record Trial(int count, int round, int slot, String variant, String value, int jobs, long ios, double runtimeS,
                        double metric, double taskClockNs, double nsPerIo, double opsDelta, Map<String, String> extra, int boot) {
        /** The switch's operations per I/O per unit of N: {@code opsDelta / (ios * N)}; NaN without I/Os. */
        public double opsPerIoPerCount() {
            return ios == 0 ? Double.NaN : opsDelta / ((double) ios * count);
        }
    }

    /** The boots the trials ran in, ascending (one for a run that booted once). */
    public java.util.SortedSet<Integer> boots() {
        java.util.SortedSet<Integer> b = new java.util.TreeSet<>();
        trials.forEach(t -> b.add(t.boot()));
        return b;
    }

    /** The metric of one interval {@code i} of the trial ({@code count}, {@code round}, {@code variant}). */
    public record Iteration(int count, int round, String variant, int i, double metric) {}

    /** The files in {@code dir}; empty when it has no {@code lab-ab.tsv}. A bad line is a {@link Tsv.Malformed}. */
    public static Optional<LabAb> read(Path dir) throws IOException {
        Map<Integer, Integer> bootOfRound = new HashMap<>();
        Path t = dir.resolve(TRIALS);
        if (!Files.isRegularFile(t)) {
            return Optional.empty();
        }
        List<Trial> trials = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (Tsv.Row r : Tsv.read(t, TRIAL_COLUMNS)) {
            Trial x = new Trial(positive(r, "count"), positive(r, "round"), r.integer("slot"), variant(r), r.text("value"),
                    r.integer("jobs"), r.count("ios"), r.number("runtime_s"), r.number("metric"), r.number("task_clock_ns"),
                    r.number("ns_per_io"), r.number("ops_delta"), extra(r), r.cells().containsKey("boot") ? positive(r, "boot") : 1);
            Integer b = bootOfRound.putIfAbsent(x.round(), x.boot());
            if (b != null && b != x.boot()) {
                throw r.bad("boot", "round " + x.round() + " is in boot " + b + " on an earlier line: a round lies in one boot");
            }
            Integer other = seen.putIfAbsent(x.count() + "/" + x.round() + "/" + x.variant(), r.line());
            if (other != null) {
                throw r.bad("a second trial of count " + x.count() + ", round " + x.round() + ", variant " + x.variant()
                        + " (the first is on line " + other + ")");
            }
            trials.add(x);
        }
        List<Iteration> its = new ArrayList<>();
        Path i = dir.resolve(ITERATIONS);
        if (Files.isRegularFile(i)) {
            for (Tsv.Row r : Tsv.read(i, ITERATION_COLUMNS)) {
                its.add(new Iteration(positive(r, "count"), positive(r, "round"), variant(r), r.integer("i"), r.number("metric")));
            }
        }
        return Optional.of(new LabAb(List.copyOf(trials), List.copyOf(its)));
    }

    private static int positive(Tsv.Row r, String column) {
        int v = r.integer(column);
        if (v < 1) {
            throw r.bad(column, "must be >= 1");
        }
        return v;
    }

    private static String variant(Tsv.Row r) {
        String v = r.text("variant");
        if (v.isEmpty()) {
            throw r.bad("variant", "empty");
        }
        return v;
    }

    private static Map<String, String> extra(Tsv.Row r) {
        Map<String, String> m = new LinkedHashMap<>();
        String s = r.text("extra");
        if (s.isEmpty() || s.equals("-")) {
            return m;
        }
        for (String kv : s.split(";")) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw r.bad("extra", "'" + kv + "' is not k=v");
            }
            m.put(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
        }
        return m;
    }
}
