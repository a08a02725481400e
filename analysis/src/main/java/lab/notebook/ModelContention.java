package lab.notebook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.parse.LabAb;
import lab.results.RunDir;

/**
 * The model's contention at the amplified sweep's cells, counted as the kernel's is
 * ({@link LabKernelContention}): lab.engine.bench.ContentionMain's
 * {@value LabKernelPart#CONTENTION}{@code -rR.json}, a round a file, beside the sweep's
 * {@value LabKernelPart#AMP_FACTS} (on the host, or in {@value LabKernelPart#AMP_GUEST}/ for the
 * guest). The facts say which cell is which: the before is {@code variant} with {@code counts}'
 * value at N ({@code none} at N = 0), the after {@code after_variant} with {@code after_counts}'
 * ({@code after_none}); {@code contention_site} names the model's counterpart of the kernel's lock
 * ("SITE SIDE" of the engine's Contention, or {@code lines}: an atomic switch, no lock). Knows no
 * fix.
 *
 * <p>Per N and variant, over rounds (Student's t mean, {@link Estimator#mean}): acquisitions,
 * contentions and wait (ns) per I/O at the site, and handoffs per I/O of every line. Between two
 * counts, per round: the added contentions and the added wait over the added acquisitions at the
 * site, as the kernel's split has them over its added operations.
 */
public final class ModelContention {
    /** {@code contention_site} of an atomic switch: the handoffs of every line. */
    public static final String LINES = "lines";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A count and variant ({@link LabAb#BEFORE}, {@link LabAb#AFTER}) over rounds, per I/O. */
    public record Cell(int count, String variant, Estimate acquiredPerIo, Estimate contendedPerIo, Estimate waitNsPerIo,
                       Estimate handoffsPerIo) {}

    /** Between counts {@code from} and {@code to}, per round: added contentions and wait (ns) per added acquisition at the site. */
    public record Added(String variant, int from, int to, Estimate frequency, Estimate waitPerOpNs) {}

    /** One round's counts of a cell. */
    private record Counted(double acquired, double contended, double waitNs, double handoffs) {}

    private final String site;
    private final int threads;
    private final List<Cell> cells;
    private final Map<String, Map<Integer, Map<Integer, Counted>>> byVariant;

    private ModelContention(String site, int threads, Map<String, Map<Integer, Map<Integer, Counted>>> byVariant) {
        this.site = site;
        this.threads = threads;
        this.byVariant = byVariant;
        List<Cell> cs = new ArrayList<>();
        new TreeMap<>(invert(byVariant)).forEach((n, vs) -> vs.forEach((v, rounds) -> cs.add(new Cell(n, v,
                estimateMean(rounds, Counted::acquired), estimateMean(rounds, Counted::contended), estimateMean(rounds, Counted::waitNs),
                estimateMean(rounds, Counted::handoffs)))));
        this.cells = List.copyOf(cs);
    }

    private static Map<Integer, Map<String, Map<Integer, Counted>>> invert(Map<String, Map<Integer, Map<Integer, Counted>>> by) {
        Map<Integer, Map<String, Map<Integer, Counted>>> out = new TreeMap<>();
        by.forEach((v, ns) -> ns.forEach((n, rounds) -> out.computeIfAbsent(n, x -> new LinkedHashMap<>()).put(v, rounds)));
        return out;
    }

    private static Estimate estimateMean(Map<Integer, Counted> rounds, ToDoubleFunction<Counted> f) {
        return Estimator.mean(rounds.values().stream().map(f::applyAsDouble).toList());
    }

    /**
     * The model's contention files of {@code dir} (a fix's lab-kernel folder, or its amp-guest/);
     * empty without them. A file or fact it cannot read is a gap of {@code run}, and empty.
     */
    public static Optional<ModelContention> read(RunDir run, Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        for (int r = 1; Files.isRegularFile(dir.resolve(LabKernelPart.CONTENTION + "-r" + r + ".json")); r++) {
            files.add(dir.resolve(LabKernelPart.CONTENTION + "-r" + r + ".json"));
        }
        if (files.isEmpty()) {
            return Optional.empty();
        }
        Path factsFile = dir.resolve(LabKernelPart.AMP_FACTS);
        Map<String, String> f = KernelRuns.readEnv(factsFile);
        String site = f.get("contention_site");
        for (String k : List.of("contention_site", "param", "amp", "variant", "none", "counts")) {
            if (f.get(k) == null || f.get(k).isBlank()) {
                run.gap(factsFile, "no " + k + " line beside " + LabKernelPart.CONTENTION + "-rR.json");
                return Optional.empty();
            }
        }
        Map<String, Map<Integer, String>> values = new LinkedHashMap<>();
        values.put(LabAb.BEFORE + " " + f.get("variant"), byN(f.get("none"), f.get("counts")));
        String after = f.getOrDefault("after_variant", f.get("variant"));
        values.put(LabAb.AFTER + " " + after, byN(f.getOrDefault("after_none", f.get("none")),
                f.getOrDefault("after_counts", byNone(f.get("counts"), f.get("none")))));
        Map<String, Map<Integer, Map<Integer, Counted>>> by = new LinkedHashMap<>();
        int threads = 0;
        for (int r = 1; r <= files.size(); r++) {
            JsonNode j = JSON.readTree(files.get(r - 1).toFile());
            threads = j.path("threads").asInt();
            for (Map.Entry<String, Map<Integer, String>> side : values.entrySet()) {
                String[] vv = side.getKey().split(" ", 2);
                for (Map.Entry<Integer, String> e : side.getValue().entrySet()) {
                    JsonNode cell = find(j, f.get("param"), vv[1], f.get("amp"), e.getValue());
                    if (cell == null) {
                        run.gap(files.get(r - 1), "no cell " + f.get("param") + "=" + vv[1] + " " + f.get("amp") + "=" + e.getValue()
                                + " (N = " + e.getKey() + ")");
                        return Optional.empty();
                    }
                    by.computeIfAbsent(vv[0], x -> new TreeMap<>()).computeIfAbsent(e.getKey(), x -> new TreeMap<>()).put(r,
                            counted(cell, site));
                }
            }
        }
        return Optional.of(new ModelContention(site, threads, by));
    }

    /** N -> value: N = 0 {@code none}, then {@code counts}' "N=value" words. */
    private static Map<Integer, String> byN(String none, String counts) {
        Map<Integer, String> m = new TreeMap<>();
        m.put(0, none);
        for (String w : counts.trim().split(" +")) {
            int eq = w.indexOf('=');
            m.put(Integer.parseInt(w.substring(0, eq)), w.substring(eq + 1));
        }
        return m;
    }

    /** {@code counts} with every value {@code none}: an after that is the before without its operations. */
    private static String byNone(String counts, String none) {
        return String.join(" ", java.util.Arrays.stream(counts.trim().split(" +")).map(w -> w.substring(0, w.indexOf('=') + 1) + none)
                .toList());
    }

    private static JsonNode find(JsonNode j, String param, String variant, String amp, String value) {
        for (JsonNode c : j.path("cells")) {
            if (variant.equals(c.path("params").path(param).asText()) && value.equals(c.path("params").path(amp).asText())) {
                return c;
            }
        }
        return null;
    }

    private static Counted counted(JsonNode cell, String site) {
        double handoffs = 0;
        for (JsonNode h : cell.path("handoffsPerIo")) {
            handoffs += h.asDouble();
        }
        if (site.equals(LINES)) {
            return new Counted(0, 0, 0, handoffs);
        }
        String[] w = site.trim().split(" +");
        JsonNode m = cell.path("locksPerIo").path(w[0]).path(w.length > 1 ? w[1] : "");
        return new Counted(m.path("lockAcquired").asDouble(0), m.path("lockContended").asDouble(0), m.path("lockWaitNs").asDouble(0),
                handoffs);
    }

    /**
     * Per variant, the added contentions and wait per added acquisition at the site from count
     * {@code from} to {@code to}, per round; a variant whose acquisitions did not grow has none.
     */
    public List<Added> estimateAdded(int from, int to) {
        List<Added> out = new ArrayList<>();
        byVariant.forEach((v, ns) -> {
            Map<Integer, Counted> lo = ns.get(from);
            Map<Integer, Counted> hi = ns.get(to);
            if (lo == null || hi == null || from == to) {
                return;
            }
            List<Double> freq = new ArrayList<>();
            List<Double> wait = new ArrayList<>();
            lo.forEach((round, a) -> {
                Counted b = hi.get(round);
                LabKernelContention.Step st = b == null ? null
                        : LabKernelContention.Step.of(a.acquired(), a.contended(), a.waitNs(), b.acquired(), b.contended(), b.waitNs());
                if (st != null) {
                    freq.add(st.frequency());
                    wait.add(st.waitPerOp());
                }
            });
            if (!freq.isEmpty()) {
                out.add(new Added(v, from, to, Estimator.mean(freq), Estimator.mean(wait)));
            }
        });
        return out;
    }

    /** The before's {@link #estimateAdded(int, int)}; null where there is none. */
    public Added estimateAddedBefore(int from, int to) {
        return estimateAdded(from, to).stream().filter(a -> a.variant().equals(LabAb.BEFORE)).findFirst().orElse(null);
    }

    /** The counts the model ran, ascending (0 first). */
    public List<Integer> counts() {
        return cells.stream().map(Cell::count).distinct().toList();
    }

    /** The cell at {@code count} of {@code variant}; null where none. */
    public Cell cell(int count, String variant) {
        return cells.stream().filter(c -> c.count() == count && c.variant().equals(variant)).findFirst().orElse(null);
    }

    public String site() {
        return site;
    }

    /** Whether the site is an atomic switch's lines ({@link #LINES}) rather than a lock. */
    public boolean lines() {
        return site.equals(LINES);
    }

    public int threads() {
        return threads;
    }

    public List<Cell> cells() {
        return cells;
    }

    /** The summary's entry: the site, the threads, the cells. */
    Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("site", site);
        m.put("threads", threads);
        List<Object> cs = new ArrayList<>();
        for (Cell c : cells) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("n", c.count());
            x.put("variant", c.variant());
            x.put("acquired_per_io", Parts.json(c.acquiredPerIo()));
            x.put("contended_per_io", Parts.json(c.contendedPerIo()));
            x.put("wait_ns_per_io", Parts.json(c.waitNsPerIo()));
            x.put("handoffs_per_io", Parts.json(c.handoffsPerIo()));
            cs.add(x);
        }
        m.put("cells", cs);
        return m;
    }
}
