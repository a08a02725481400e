package lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One benchmark result of a JMH {@code -rf json} file: which benchmark, its params, thread
 * count, and the primary metric's score and per-iteration samples (all forks).
 */
public record JmhResult(String benchmark, String mode, int threads, Map<String, String> params,
                        double score, double scoreError, String unit, List<Double> samples) {

    private static final ObjectMapper JSON = new ObjectMapper();

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
        Map<String, String> params = new LinkedHashMap<>();
        JsonNode p = b.get("params");
        if (p != null) {
            p.properties().forEach(e -> params.put(e.getKey(), e.getValue().asText()));
        }
        List<Double> samples = new ArrayList<>();
        JsonNode raw = pm.get("rawData");
        if (raw != null) {
            for (JsonNode fork : raw) {
                for (JsonNode v : fork) {
                    samples.add(v.asDouble());
                }
            }
        }
        double err = pm.path("scoreError").asDouble(Double.NaN);
        return new JmhResult(b.get("benchmark").asText(), b.path("mode").asText(), b.get("threads").asInt(),
                params, pm.get("score").asDouble(), err, pm.path("scoreUnit").asText(), samples);
    }
}
