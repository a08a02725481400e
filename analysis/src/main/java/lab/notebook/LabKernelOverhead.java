package lab.notebook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.estimate.Verdict;
import lab.analysis.parse.Tsv;
import lab.results.RunDir;

/**
 * What the lab kernel costs by itself: Debian's kernel against the lab kernel with every switch
 * at its default, the same short fio job, boots interleaved per round, two repetitions per boot
 * ({@code raw/lab-kernel/overhead.tsv} and {@code overhead.txt}, from {@code lab-kernel.sh
 * overhead}). The ratio is lab over debian IOPS of the same round (each boot's repetitions
 * averaged), the rounds' geometric mean with its 95% interval, judged at ±5%; the A/A is the second
 * repetition over the first within a boot, both kernels' in a round taken together (their geometric
 * mean: they share the round), estimated over rounds the same way.
 *
 * <p>Where the run also booted the lab kernel built without its tracing block ({@code lab-notrace}:
 * kernel/config's tracepoints and event tracing left out), lab over lab-notrace is what the
 * kernel's contention events (and every other tracepoint) cost when off, estimated and judged the
 * same way; the A/A then takes the three kernels' pairs of a round together.
 */
public final class LabKernelOverhead {
    static final List<String> COLUMNS = List.of("round", "slot", "kernel", "rep", "ios", "runtime_s", "iops", "task_clock_ns",
            "ns_per_io");
    private static final String DEBIAN = "debian";
    private static final String LAB = "lab";
    private static final String NOTRACE = "lab-notrace";

    private final Map<String, String> facts;
    private final Map<Integer, Map<String, Double>> iops;
    private final Estimate ratio;
    private final Estimate aa;
    private final Map<String, Estimate> nsPerIo;
    /** lab over lab-notrace: the events' cost when off; null where the run has no lab-notrace boots. */
    private final Estimate eventsOff;

    private LabKernelOverhead(Map<String, String> facts, Map<Integer, Map<String, Double>> iops, Estimate ratio, Estimate aa,
                              Map<String, Estimate> nsPerIo, Estimate eventsOff) {
        this.facts = facts;
        this.iops = iops;
        this.ratio = ratio;
        this.aa = aa;
        this.nsPerIo = nsPerIo;
        this.eventsOff = eventsOff;
    }

    /** The run's overhead measurement; empty without {@code overhead.tsv}, or when it is malformed (a gap names the line). */
    public static Optional<LabKernelOverhead> read(RunDir run) throws IOException {
        Path dir = run.raw().resolve("lab-kernel");
        Path tsv = dir.resolve("overhead.tsv");
        if (!Files.isRegularFile(tsv)) {
            return Optional.empty();
        }
        List<Tsv.Row> rows;
        try {
            rows = Tsv.read(tsv, COLUMNS);
            for (Tsv.Row r : rows) {
                if (!List.of(DEBIAN, LAB, NOTRACE).contains(r.text("kernel"))) {
                    throw r.bad("kernel", "not debian, lab or lab-notrace");
                }
                r.integer("round");
                r.integer("rep");
                r.number("iops");
                r.number("ns_per_io");
            }
        } catch (Tsv.Malformed e) {
            run.gap(e.file(), "line " + e.line() + ": " + e.problem());
            return Optional.empty();
        }
        Map<Integer, Map<String, List<Double>>> boots = new TreeMap<>();
        Map<String, Map<Integer, Double>> reps = new TreeMap<>();
        Map<String, List<Double>> ns = new TreeMap<>();
        for (Tsv.Row r : rows) {
            boots.computeIfAbsent(r.integer("round"), x -> new TreeMap<>()).computeIfAbsent(r.text("kernel"), x -> new ArrayList<>())
                    .add(r.number("iops"));
            reps.computeIfAbsent(r.integer("round") + "/" + r.text("kernel"), x -> new TreeMap<>()).put(r.integer("rep"), r.number("iops"));
            ns.computeIfAbsent(r.text("kernel"), x -> new ArrayList<>()).add(r.number("ns_per_io"));
        }
        Map<Integer, Map<String, Double>> mean = new TreeMap<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> offRatios = new ArrayList<>();
        boots.forEach((round, k) -> {
            Map<String, Double> m = new TreeMap<>();
            k.forEach((kernel, v) -> m.put(kernel, v.stream().mapToDouble(Double::doubleValue).average().orElseThrow()));
            mean.put(round, m);
            ratioOf(m, LAB, DEBIAN).ifPresent(ratios::add);
            ratioOf(m, LAB, NOTRACE).ifPresent(offRatios::add);
        });
        // the A/A per round: the kernels' second repetitions over their first, the geometric mean of
        // the two (they share the round's drift, so the round, not each kernel's pair, is the unit)
        Map<Integer, List<Double>> aaLogs = new TreeMap<>();
        reps.forEach((key, r) -> {
            if (r.containsKey(1) && r.containsKey(2) && r.get(1) > 0 && r.get(2) > 0) {
                aaLogs.computeIfAbsent(Integer.parseInt(key.substring(0, key.indexOf('/'))), x -> new ArrayList<>())
                        .add(Math.log(r.get(2) / r.get(1)));
            }
        });
        List<Double> aa = new ArrayList<>();
        aaLogs.values().forEach(l -> aa.add(Math.exp(l.stream().mapToDouble(Double::doubleValue).average().orElseThrow())));
        Map<String, Estimate> nsMedian = new TreeMap<>();
        ns.forEach((k, v) -> nsMedian.put(k, Estimator.of(v.stream().filter(x -> x > 0 && Double.isFinite(x)).toList())));
        return Optional.of(new LabKernelOverhead(KernelRuns.readEnv(dir.resolve("overhead.txt")), mean, Estimator.of(ratios),
                Estimator.of(aa), nsMedian, offRatios.isEmpty() ? null : Estimator.of(offRatios)));
    }

    /** A round's IOPS of {@code top} over {@code bottom}, where it has both. */
    private static Optional<Double> ratioOf(Map<String, Double> round, String top, String bottom) {
        return round.containsKey(top) && round.containsKey(bottom) && round.get(bottom) > 0
                ? Optional.of(round.get(top) / round.get(bottom)) : Optional.empty();
    }

    /** What the overhead is judged against: no difference larger than ±5%. */
    static final double TARGET = 0.05;

    /** The notebook's part; {@code command}: what made the data. */
    public String text(String command) {
        StringBuilder b = new StringBuilder("## The lab kernel's overhead\n\nDebian's kernel (`")
                .append(facts.getOrDefault("debian_kernel", "?")).append("`) against the lab kernel (`")
                .append(facts.getOrDefault("lab_kernel", "?")).append("`, every switch at its default), ")
                .append(facts.getOrDefault("workload", "?")).append(", ").append(facts.getOrDefault("env", "?")).append(", ")
                .append(iops.size()).append(" rounds, the boots interleaved (order alternating), two repetitions per boot. Data: `")
                .append(command).append("` (`raw/lab-kernel/overhead.tsv`).\n\n| round | debian IOPS | lab IOPS | lab / debian |")
                .append(eventsOff == null ? "\n|---:|---:|---:|---:|\n" : " lab-notrace IOPS | lab / lab-notrace |\n|---:|---:|---:|---:|---:|---:|\n");
        iops.forEach((round, m) -> {
            b.append("| ").append(round).append(" | ").append(cell(m.get(DEBIAN))).append(" | ").append(cell(m.get(LAB))).append(" | ")
                    .append(ratioOf(m, LAB, DEBIAN).map(r -> Fmt.f(r, 3) + "x").orElse("—")).append(" |");
            if (eventsOff != null) {
                b.append(" ").append(cell(m.get(NOTRACE))).append(" | ").append(ratioOf(m, LAB, NOTRACE).map(r -> Fmt.f(r, 3) + "x").orElse("—"))
                        .append(" |");
            }
            b.append("\n");
        });
        return b.append("\nlab / debian: ").append(ratio == null ? "—" : ratio.format(3) + "x").append("; the A/A (the second"
                        + " repetition over the first in one boot, both kernels' in a round together): ").append(aa == null ? "none" : aa.format(3) + "x"
                        + (aa.excludes(1) ? " (excludes 1: drift)" : ""))
                .append(". CPU per I/O (task-clock of fio over its I/Os, the geometric mean over its runs with its 95% interval): debian ")
                .append(Fmt.est(nsPerIo.get(DEBIAN), 0)).append(" ns, lab ").append(Fmt.est(nsPerIo.get(LAB), 0)).append(" ns")
                .append(eventsOff == null ? "" : ", lab-notrace " + Fmt.est(nsPerIo.get(NOTRACE), 0) + " ns").append(".").append(verdict())
                .append(eventsOffText()).append("\n\n").toString();
    }

    /**
     * The contention events' cost when off: lab over lab-notrace (the same lab kernel with and
     * without its tracing block: every tracepoint compiled in, none enabled), judged as the overhead.
     */
    private String eventsOffText() {
        if (eventsOff == null) {
            return "";
        }
        String k = facts.getOrDefault("notrace_kernel", "?");
        String w = " The contention events when off (lab over lab-notrace, `" + k + "`): " + eventsOff.format(3) + "x; ";
        double d = eventsOff.value() - 1;
        return w + switch (Verdict.of(eventsOff, aa, TARGET)) {
            case NO_EFFECT -> "its interval lies within " + Verdict.pct(TARGET) + ": compiled in and off, the tracepoints cost nothing"
                    + " this run can see (under TCG its noise, not a resolved zero).";
            case SMALL_CHANGE, EFFECT -> Verdict.words(eventsOff, aa, TARGET) + ": the lab kernel with them did " + Fmt.f(100 * Math.abs(d), 1)
                    + "% " + (d < 0 ? "fewer" : "more") + " IOPS than without.";
            default -> Verdict.words(eventsOff, aa, TARGET) + ": TCG's noise here does not resolve their cost when off.";
        };
    }

    /**
     * What the ratio's interval says of the lab kernel's overhead (at ±5%); both sides of every
     * switch's A/B run the lab kernel, so an overhead is not in their ratios either way.
     */
    private String verdict() {
        if (ratio == null) {
            return "";
        }
        double d = ratio.value() - 1;
        String more = " (both sides of each switch's A/B run the lab kernel, so this is not in their ratios)";
        return switch (Verdict.of(ratio, aa, TARGET)) {
            case NO_EFFECT -> " Its interval lies within " + Verdict.pct(TARGET) + ": no overhead larger than that.";
            case SMALL_CHANGE, EFFECT -> " " + capital(Verdict.words(ratio, aa, TARGET)) + ": the lab kernel did " + Fmt.f(100 * Math.abs(d), 1)
                    + "% " + (d < 0 ? "fewer" : "more") + " IOPS than Debian's here" + more + ".";
            default -> " " + capital(Verdict.words(ratio, aa, TARGET)) + ".";
        };
    }

    private static String capital(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String cell(Double v) {
        return v == null ? "—" : Fmt.f(v, 0);
    }

    /** summary.json's {@code lab_kernel_overhead}. */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String k : List.of("debian_kernel", "lab_kernel", "workload", "env")) {
            m.put(k, facts.get(k));
        }
        m.put("rounds", iops.size());
        m.put("ratio", Parts.json(ratio));
        m.put("aa", Parts.json(aa));
        m.putAll(Verdict.json(ratio, aa, TARGET));
        m.put("ns_per_io_debian", Parts.json(nsPerIo.get(DEBIAN)));
        m.put("ns_per_io_lab", Parts.json(nsPerIo.get(LAB)));
        if (eventsOff != null) {
            m.put("notrace_kernel", facts.get("notrace_kernel"));
            m.put("events_off", Parts.json(eventsOff));
            m.put("events_off_verdict", Verdict.json(eventsOff, aa, TARGET));
            m.put("ns_per_io_notrace", Parts.json(nsPerIo.get(NOTRACE)));
        }
        List<Object> rounds = new ArrayList<>();
        iops.forEach((round, k) -> {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("round", round);
            r.put("iops_debian", k.get(DEBIAN));
            r.put("iops_lab", k.get(LAB));
            if (eventsOff != null) {
                r.put("iops_notrace", k.get(NOTRACE));
            }
            rounds.add(r);
        });
        m.put("per_round", rounds);
        return m;
    }
}
