package lab.analysis.fidelity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shared-line operations per I/O of a fix's variants, as the pairing counted them with the
 * engine ({@code raw/<fix>/counts.json}: one entry per variant and benchmark point, the engine's
 * {@code SharedLineCounts}): per I/O by site and kind, and per clock tick.
 */
public final class LineCounts {
    public static final String FILE = "counts.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One variant at one point: ops per I/O and per tick, by site then kind; and visits per I/O by
     * line, null where the count run did not tell visits apart.
     */
    public record Entry(String variant, Map<String, String> point, Map<String, Map<String, Double>> perIo,
                        Map<String, Map<String, Double>> perTick, Map<String, Double> visitsPerIo) {
        /** Visits to shared lines per I/O, every line; NaN where not counted. */
        public double visits() {
            return visitsPerIo == null ? Double.NaN : visitsPerIo.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        /** Operations per I/O by kind, summed over sites. */
        public Map<String, Double> perIoByKind() {
            return byKind(perIo);
        }

        public Map<String, Double> perTickByKind() {
            return byKind(perTick);
        }

        /** Per I/O by kind at a total rate {@code iosPerSecond} and {@code hz}: per I/O plus per tick x HZ / rate. */
        public Map<String, Double> byKindAt(double iosPerSecond, int hz) {
            Map<String, Double> out = new TreeMap<>(perIoByKind());
            perTickByKind().forEach((k, v) -> out.merge(k, v * hz / iosPerSecond, Double::sum));
            return out;
        }

        public double total() {
            return perIoByKind().values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    private final List<Entry> entries;

    private LineCounts(List<Entry> entries) {
        this.entries = entries;
    }

    /** The counts of a run's fix, or null when it has none. */
    public static LineCounts read(Path fixRawDir) throws IOException {
        Path f = fixRawDir.resolve(FILE);
        if (!Files.exists(f)) {
            return null;
        }
        List<Entry> out = new ArrayList<>();
        for (JsonNode n : JSON.readTree(f.toFile())) {
            Map<String, String> point = new TreeMap<>();
            n.path("point").fields().forEachRemaining(e -> point.put(e.getKey(), e.getValue().asText()));
            Map<String, Double> visits = null;
            if (n.path("visitsPerIo").isObject()) {
                Map<String, Double> v = new TreeMap<>();
                n.path("visitsPerIo").fields().forEachRemaining(e -> v.put(e.getKey(), e.getValue().asDouble()));
                visits = v;
            }
            out.add(new Entry(n.path("variant").asText(), point, nested(n.path("perIo")), nested(n.path("perTick")), visits));
        }
        return new LineCounts(out);
    }

    /** The entry of {@code variant} at the point whose params include {@code point}; null if none. */
    public Entry get(String variant, Map<String, String> point) {
        return entries.stream().filter(e -> e.variant().equals(variant)
                && point.entrySet().stream().allMatch(p -> p.getValue().equals(e.point().get(p.getKey())))).findFirst().orElse(null);
    }

    public List<Entry> entries() {
        return Collections.unmodifiableList(entries);
    }

    private static Map<String, Map<String, Double>> nested(JsonNode n) {
        Map<String, Map<String, Double>> out = new TreeMap<>();
        n.fields().forEachRemaining(site -> {
            Map<String, Double> kinds = new TreeMap<>();
            site.getValue().fields().forEachRemaining(k -> kinds.put(k.getKey(), k.getValue().asDouble()));
            out.put(site.getKey(), kinds);
        });
        return out;
    }

    private static Map<String, Double> byKind(Map<String, Map<String, Double>> bySite) {
        Map<String, Double> out = new TreeMap<>();
        bySite.values().forEach(kinds -> kinds.forEach((k, v) -> out.merge(k, v, Double::sum)));
        return out;
    }
}
