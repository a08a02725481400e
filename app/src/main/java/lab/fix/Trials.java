package lab.fix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * One trial of a round: each variant of a fix's table run by JMH on its own, in the round's order
 * ({@link #order}: seeded, random, balanced so that over every k rounds each of k variants takes
 * each position once), their results merged into the round's one JMH JSON file, and each run's
 * place written to {@code raw/<fix>/rounds.tsv}:
 * {@code round<TAB>threads<TAB>position<TAB>variant<TAB>trial<TAB>seed}. A fixed order would let a
 * position effect (the first trial after a JIT-cold parent, heat building over a round) pass for
 * a difference between variants; a balanced one spreads it over all of them, and the A/A control
 * (a copy of the base at its own position) shows what is left.
 */
public final class Trials {
    private Trials() {}

    public static final String FILE = "rounds.tsv";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * {@code items} in round {@code round}'s order: rounds go in blocks of k = items.size(); each
     * block draws a random permutation and a random order of its k rotations (a Latin square), so
     * every item takes every position exactly once per block.
     */
    public static <T> List<T> order(List<T> items, int round, long seed) {
        int k = items.size();
        if (k < 2) {
            return items;
        }
        int block = (round - 1) / k;
        int row = (round - 1) % k;
        Random rnd = new Random(seed * 0x9E3779B97F4A7C15L + block);
        List<T> perm = new ArrayList<>(items);
        Collections.shuffle(perm, rnd);
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            rows.add(i);
        }
        Collections.shuffle(rows, rnd);
        List<T> out = new ArrayList<>(perm);
        Collections.rotate(out, rows.get(row));
        return out;
    }

    /** The seed of a trial's order: the run's id, the trial and the thread count, so every cell has its own balanced sequence. */
    public static long seed(Pairing.Ctx c, String trial, int threads) {
        return (c.runDir().getFileName().toString().replace(".partial", "") + "/" + trial + "/" + threads).hashCode();
    }

    /**
     * Runs {@code options.apply(v)} for each of {@code variants} in round {@code round}'s order at
     * {@code threads}, merging JMH's JSON into {@code out} and recording the order.
     */
    public static void run(Pairing.Ctx c, String trial, int round, int threads, List<String> variants,
                           Function<String, ChainedOptionsBuilder> options, Path out) throws Exception {
        run(c, trial, round, round, threads, variants, options, out);
    }

    /**
     * {@link #run(Pairing.Ctx, String, int, int, List, Function, Path)} ordered as round
     * {@code orderRound} of a sequence of its own (a run's added headline rounds, with fewer
     * variants than its table's, are balanced among themselves).
     */
    public static void run(Pairing.Ctx c, String trial, int round, int orderRound, int threads, List<String> variants,
                           Function<String, ChainedOptionsBuilder> options, Path out) throws Exception {
        long seed = seed(c, trial + (orderRound == round ? "" : "/added"), threads);
        List<String> order = order(variants, orderRound, seed);
        ArrayNode merged = JSON.createArrayNode();
        for (int pos = 0; pos < order.size(); pos++) {
            String v = order.get(pos);
            Path part = out.resolveSibling(out.getFileName() + ".part" + pos);
            try {
                new Runner(JmhOptions.toJson(options.apply(v), part).build()).run();
                JsonNode results = JSON.readTree(part.toFile());
                results.forEach(merged::add);
            } finally {
                Files.deleteIfExists(part);
            }
            log(c.raw(), round, threads, pos + 1, v, trial, seed);
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), merged);
    }

    private static void log(Path raw, int round, int threads, int position, String variant, String trial, long seed) throws IOException {
        Path f = raw.resolve(FILE);
        if (!Files.exists(f)) {
            Files.writeString(f, "round\tthreads\tposition\tvariant\ttrial\tseed\n");
        }
        Files.writeString(f, round + "\t" + threads + "\t" + position + "\t" + variant + "\t" + trial + "\t" + seed + "\n",
                StandardOpenOption.APPEND);
    }
}
