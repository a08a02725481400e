import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.estimate.Verdict;

/**
 * The counters-off A/B's figures, from raw/ alone, with the lab's own estimator: per fix, HEAD's
 * throughput over the pre-counter jar's within each round (old ns per op / HEAD's) (the geometric mean over rounds, Student
 * t on the logs), its A/A (HEAD over HEAD) and the verdict at margin M = 0.02 gated by the A/A.
 * Usage: java -cp app/target/lab.jar CountersOff.java RUN
 */
public class CountersOff {
    public static void main(String[] args) throws Exception {
        Path run = Path.of(args[0]);
        ObjectMapper json = new ObjectMapper();
        Map<String, Map<String, Map<Integer, Double>>> ns = new TreeMap<>();
        List<String> rows = Files.readAllLines(run.resolve("raw/trials.tsv"));
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split("\t");
            JsonNode m = json.readTree(run.resolve(f[4]).toFile()).get(0).get("primaryMetric");
            double score = m.get("score").asDouble();
            String unit = m.get("scoreUnit").asText();
            double nsPerOp = switch (unit) {
                case "ns/op" -> score;
                case "us/op" -> score * 1e3;
                case "ops/ms" -> 1e6 / score;
                case "ops/s" -> 1e9 / score;
                case "ops/us" -> 1e3 / score;
                default -> throw new IllegalStateException(f[4] + ": unit " + unit);
            };
            ns.computeIfAbsent(f[2], k -> new TreeMap<>()).computeIfAbsent(f[3], k -> new TreeMap<>()).put(Integer.parseInt(f[0]), nsPerOp);
        }
        double margin = 0.02;
        Map<String, Object> out = new LinkedHashMap<>();
        System.out.println("| fix (cell) | old, ns/op | HEAD, ns/op | throughput, HEAD / old | A/A (HEAD / HEAD) | verdict at ±2% |");
        System.out.println("|---|---:|---:|---:|---:|---|");
        ns.forEach((fix, sides) -> {
            Estimate ratio = Estimator.ratio(sides.get("old"), sides.get("new"));
            Estimate aa = Estimator.ratio(sides.get("new"), sides.get("aa"));
            Estimate oldNs = Estimator.of(sides.get("old").values());
            Estimate newNs = Estimator.of(sides.get("new").values());
            System.out.printf("| %s | %s | %s | %s | %s | %s |%n", fix, oldNs.format(1), newNs.format(1), ratio.format(3), aa.format(3),
                    Verdict.shortWords(ratio, aa, margin));
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("old_ns_per_op", List.of(oldNs.value(), oldNs.lo(), oldNs.hi()));
            e.put("head_ns_per_op", List.of(newNs.value(), newNs.lo(), newNs.hi()));
            e.put("throughput_head_over_old", List.of(ratio.value(), ratio.lo(), ratio.hi(), ratio.rounds()));
            e.put("aa", List.of(aa.value(), aa.lo(), aa.hi(), aa.rounds()));
            e.put("verdict", Verdict.of(ratio, aa, margin).name());
            out.put(fix, e);
        });
        json.writerWithDefaultPrettyPrinter().writeValue(run.resolve("estimates.json").toFile(), out);
    }
}
