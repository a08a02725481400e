package lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * One benchmark result of a JMH {@code -rf json} file: which benchmark, its params, thread
 * count, the primary metric's score and per-iteration samples (all forks), and the secondary
 * metrics that profilers add.
 *
 * <p>Format (JMH 1.37, {@code org.openjdk.jmh.results.format.JSONResultFormat}): an array of
 * benchmarks, each with {@code primaryMetric} and {@code secondaryMetrics}; the latter is an
 * object name &rarr; {@code {score, scoreError, scoreUnit, rawData}}, e.g. {@code gc.alloc.rate.norm}
 * from {@code -prof gc}. JSON has no NaN or infinity, so JMH writes them as the strings
 * {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"} (a {@code scoreError} of one sample is {@code "NaN"}).
 *
 * @param secondary the secondary metrics by name, in file order; empty without profilers
 */
public record JmhResult(String benchmark, String mode, int threads, Map<String, String> params,
                        double score, double scoreError, String unit, List<Double> samples,
                        Map<String, Metric> secondary, List<Integer> forks) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The {@code -prof gc} metric of bytes allocated per operation. */
    public static final String GC_ALLOC_RATE_NORM = "gc.alloc.rate.norm";

    /**
     * A secondary metric.
     *
     * @param samples the per-iteration values of all forks, from {@code rawData}
     */
    public record Metric(double score, double scoreError, String unit, List<Double> samples, List<Integer> forks) {
        public Metric {
            samples = List.copyOf(samples);
            forks = List.copyOf(forks);
        }
    }

    public JmhResult {
        secondary = Collections.unmodifiableMap(new LinkedHashMap<>(secondary));
        forks = List.copyOf(forks);
    }

    /** A result whose samples are one fork's (the signature before forks were kept apart). */
    public JmhResult(String benchmark, String mode, int threads, Map<String, String> params,
                     double score, double scoreError, String unit, List<Double> samples, Map<String, Metric> secondary) {
        this(benchmark, mode, threads, params, score, scoreError, unit, samples, secondary, List.of(samples.size()));
    }

    /**
     * The mean of each fork's measured iterations ({@code rawData} per fork), in fork order; one
     * mean, the score, where the file had no iterations.
     */
    public List<Double> forkMeans() {
        if (samples.isEmpty()) {
            return List.of(score);
        }
        List<Double> out = new ArrayList<>();
        int at = 0;
        for (int n : forks) {
            double sum = 0;
            for (int i = at; i < at + n; i++) {
                sum += samples.get(i);
            }
            if (n > 0) {
                out.add(sum / n);
            }
            at += n;
        }
        return out;
    }

    /** A result without secondary metrics (the signature before they were read). */
    public JmhResult(String benchmark, String mode, int threads, Map<String, String> params,
                     double score, double scoreError, String unit, List<Double> samples) {
        this(benchmark, mode, threads, params, score, scoreError, unit, samples, Map.of());
    }

    /**
     * Bytes allocated per operation, {@code gc.alloc.rate.norm} of {@code -prof gc}; empty when
     * the run had no {@code -prof gc}.
     *
     * @throws IllegalStateException when that metric's unit is not {@code B/op}
     */
    public OptionalDouble gcAllocBytesPerOp() {
        Metric m = secondary.get(GC_ALLOC_RATE_NORM);
        if (m == null) {
            return OptionalDouble.empty();
        }
        if (!m.unit().equals("B/op")) {
            throw new IllegalStateException(benchmark + ": " + GC_ALLOC_RATE_NORM + " is in '" + m.unit() + "', not B/op");
        }
        return OptionalDouble.of(m.score());
    }

    /** The short method name: {@code lab.engine.bench.Primitives.pair} gives {@code pair}. */
    public String method() {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /**
     * Reads every result of a JMH JSON file.
     *
     * @throws MalformedResultException naming the file and what was wrong, for an empty,
     *         truncated or foreign file
     */
    public static List<JmhResult> read(Path file) throws MalformedResultException {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new MalformedResultException(file, "not readable JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        if (root == null || root.isMissingNode() || !root.isArray()) {
            throw new MalformedResultException(file, "not a JMH result: expected a JSON array of benchmarks");
        }
        if (root.isEmpty()) {
            throw new MalformedResultException(file, "holds no benchmark results");
        }
        List<JmhResult> out = new ArrayList<>();
        for (JsonNode b : root) {
            out.add(parseOne(file, b));
        }
        return out;
    }

    private static JmhResult parseOne(Path file, JsonNode b) throws MalformedResultException {
        JsonNode pm = b.get("primaryMetric");
        if (!b.hasNonNull("benchmark") || !b.hasNonNull("threads") || pm == null || !pm.hasNonNull("score")) {
            throw new MalformedResultException(file, "an entry lacks benchmark, threads or primaryMetric.score");
        }
        String name = b.get("benchmark").asText();
        Map<String, String> params = new LinkedHashMap<>();
        JsonNode p = b.get("params");
        if (p != null) {
            p.properties().forEach(e -> params.put(e.getKey(), e.getValue().asText()));
        }
        Metric primary = metric(file, name + " primaryMetric", pm);
        return new JmhResult(name, b.path("mode").asText(), b.get("threads").asInt(), params,
                primary.score(), primary.scoreError(), primary.unit(), primary.samples(),
                secondaries(file, name, b.get("secondaryMetrics")), primary.forks());
    }

    private static Map<String, Metric> secondaries(Path file, String benchmark, JsonNode node)
            throws MalformedResultException {
        Map<String, Metric> out = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw new MalformedResultException(file, benchmark + ": secondaryMetrics is not an object");
        }
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String where = benchmark + " secondaryMetrics." + e.getKey();
            if (!e.getValue().hasNonNull("score")) {
                throw new MalformedResultException(file, where + " lacks a score");
            }
            out.put(e.getKey(), metric(file, where, e.getValue()));
        }
        return out;
    }

    /** score, scoreError (NaN when missing), scoreUnit and the flattened rawData of one metric object. */
    private static Metric metric(Path file, String where, JsonNode m) throws MalformedResultException {
        List<Double> samples = new ArrayList<>();
        List<Integer> forks = new ArrayList<>();
        JsonNode raw = m.get("rawData");
        if (raw != null) {
            for (JsonNode fork : raw) {
                forks.add(fork.size());
                for (JsonNode v : fork) {
                    samples.add(number(file, where + ".rawData", v));
                }
            }
        }
        JsonNode err = m.get("scoreError");
        double scoreError = err == null || err.isNull() ? Double.NaN : number(file, where + ".scoreError", err);
        return new Metric(number(file, where + ".score", m.get("score")), scoreError,
                m.path("scoreUnit").asText(), samples, forks);
    }

    /** A JSON number, or one of the strings JMH writes for non-finite doubles. */
    private static double number(Path file, String where, JsonNode v) throws MalformedResultException {
        if (v.isNumber()) {
            return v.doubleValue();
        }
        return switch (v.isTextual() ? v.textValue() : "") {
            case "NaN" -> Double.NaN;
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> throw new MalformedResultException(file, where + ": " + v + " is not a number");
        };
    }
}
