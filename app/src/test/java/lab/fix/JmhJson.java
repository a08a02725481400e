package lab.fix;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Hand-made JMH JSON for the sections' tests: one result entry as JMH writes it, and files of them. */
public final class JmhJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JmhJson() {}

    /** avgt, ns/op, the score with three iterations 1% apart around it, and {@code bytes} B/op from the GC profiler. */
    public static Map<String, Object> entry(String benchmark, int threads, Map<String, String> params, double score, double bytes) {
        Map<String, Object> e = entry(benchmark, threads, params, score);
        e.put("secondaryMetrics", Map.of("gc.alloc.rate.norm", Map.of("score", bytes, "scoreError", "NaN", "scoreUnit", "B/op",
                "rawData", List.of(List.of(bytes)))));
        return e;
    }

    /** avgt, ns/op, the score with three iterations 1% apart around it, no secondary metrics. */
    public static Map<String, Object> entry(String benchmark, int threads, Map<String, String> params, double score) {
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("score", score);
        pm.put("scoreError", 0.0);
        pm.put("scoreUnit", "ns/op");
        pm.put("rawData", List.of(List.of(score * 0.99, score, score * 1.01)));
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("jmhVersion", "1.37");
        e.put("benchmark", benchmark);
        e.put("mode", "avgt");
        e.put("threads", threads);
        e.put("forks", 1);
        e.put("params", params);
        e.put("primaryMetric", pm);
        e.put("secondaryMetrics", Map.of());
        return e;
    }

    /** A secondary metric of one iteration. */
    public static Map<String, Object> metric(double v) {
        return Map.of("score", v, "scoreError", "NaN", "scoreUnit", "#", "rawData", List.of(List.of(v)));
    }

    /** {@code json} written to {@code f}, its folders made. */
    public static void write(Path f, Object json) throws IOException {
        Files.createDirectories(f.getParent());
        Files.writeString(f, JSON.writeValueAsString(json));
    }
}
