package lab.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.DoubleBinaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A thread sweep of one JMH benchmark in interleaved rounds, as {@code ./lab pair} writes it:
 * files {@code PREFIX-rR-tT.json}, every param combination in each, or {@code PREFIX-rR.json} for a
 * benchmark run at one thread count only. Cells are looked up by their params and JMH's own
 * thread count; scores are JMH AverageTime (ns per op per thread).
 */
public final class JmhSweep {
    /** One result: round, thread count, the benchmark's params, and JMH's numbers. */
    public record Cell(int round, int threads, Map<String, String> params, JmhResult result) {
        public boolean matches(Map<String, String> want) {
            return want.entrySet().stream().allMatch(e -> e.getValue().equals(params.get(e.getKey())));
        }
    }

    private final List<Cell> cells;

    private JmhSweep(List<Cell> cells) {
        this.cells = cells;
    }

    /**
     * Reads every {@code PREFIX-rR-tT.json} and {@code PREFIX-rR.json} in {@code dir}; a broken file is passed to
     * {@code broken} (file and problem) and skipped, so the rest of the sweep is still used.
     */
    public static JmhSweep read(Path dir, String prefix, Consumer<MalformedResultException> broken) throws IOException {
        Pattern name = Pattern.compile(Pattern.quote(prefix) + "-r(\\d+)(-t\\d+)?\\.json");
        List<Cell> cells = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.sorted().toList()) {
                    Matcher m = name.matcher(f.getFileName().toString());
                    if (!m.matches()) {
                        continue;
                    }
                    try {
                        for (JmhResult r : JmhResult.read(f)) {
                            cells.add(new Cell(Integer.parseInt(m.group(1)), r.threads(), r.params(), r));
                        }
                    } catch (MalformedResultException e) {
                        broken.accept(e);
                    }
                }
            }
        }
        return new JmhSweep(cells);
    }

    public boolean isEmpty() { return cells.isEmpty(); }

    /**
     * The cells whose {@code param} is {@code value}; a cell without the param counts as having
     * {@code absent} (a run made before the param existed ran what its default is now).
     */
    public JmhSweep where(String param, String value, String absent) {
        return new JmhSweep(cells.stream().filter(c -> value.equals(c.params().getOrDefault(param, absent))).toList());
    }

    /** Every result, in file order. */
    public List<Cell> cells() { return cells; }

    /** The cells of round {@code r} alone: a sweep of one round. */
    public JmhSweep round(int r) {
        return new JmhSweep(cells.stream().filter(c -> c.round() == r).toList());
    }

    /** The round numbers the sweep holds, ascending. */
    public SortedSet<Integer> roundNumbers() {
        SortedSet<Integer> r = new TreeSet<>();
        cells.forEach(c -> r.add(c.round()));
        return r;
    }

    /** How many rounds the sweep holds. */
    public int rounds() {
        return (int) cells.stream().mapToInt(Cell::round).distinct().count();
    }

    public SortedSet<Integer> threadCounts() {
        SortedSet<Integer> t = new TreeSet<>();
        cells.forEach(c -> t.add(c.threads()));
        return t;
    }

    /** The values a param takes, in the order first seen. */
    public List<String> values(String param) {
        return cells.stream().map(c -> c.params().get(param)).filter(v -> v != null).distinct().toList();
    }

    /** Every measured iteration's score (ns/op per thread) of the matching cells at {@code threads}, all rounds. */
    public List<Double> samples(Map<String, String> params, int threads) {
        List<Double> out = new ArrayList<>();
        for (Cell c : cells) {
            if (c.threads() == threads && c.matches(params)) {
                out.addAll(c.result().samples().isEmpty() ? List.of(c.result().score()) : c.result().samples());
            }
        }
        return out;
    }

    /** JMH's score (ns/op per thread) of the matching cell at {@code threads}, by round. */
    public Map<Integer, Double> scoresByRound(Map<String, String> params, int threads) {
        Map<Integer, Double> out = new java.util.TreeMap<>();
        for (Cell c : cells) {
            if (c.threads() == threads && c.matches(params)) {
                out.put(c.round(), c.result().score());
            }
        }
        return out;
    }

    /**
     * {@code f(base score, candidate score)} for every round that has both cells at {@code threads}, in round order:
     * a comparison made within a round, so drift between rounds does not enter it.
     */
    public List<Double> perRound(Map<String, String> base, Map<String, String> cand, int threads, DoubleBinaryOperator f) {
        Map<Integer, Double> c = scoresByRound(cand, threads);
        List<Double> out = new ArrayList<>();
        scoresByRound(base, threads).forEach((round, b) -> {
            Double x = c.get(round);
            if (x != null) {
                out.add(f.applyAsDouble(b, x));
            }
        });
        return out;
    }

    /**
     * The variant's fork-to-fork coefficient of variation at {@code threads}: within each round, the
     * standard deviation of its forks' means over their mean, the median over rounds; where each
     * trial has one fork, the rounds' scores stand for forks (each round is a fresh JVM). NaN with
     * fewer than two forks and two rounds.
     */
    public double forkCv(Map<String, String> params, int threads) {
        List<Double> within = new ArrayList<>();
        List<Double> scores = new ArrayList<>();
        for (Cell c : cells) {
            if (c.threads() == threads && c.matches(params)) {
                List<Double> m = c.result().forkMeans();
                scores.add(c.result().score());
                if (m.size() >= 2) {
                    within.add(cv(m));
                }
            }
        }
        if (!within.isEmpty()) {
            return Stats.median(within);
        }
        return scores.size() >= 2 ? cv(scores) : Double.NaN;
    }

    /** Whether the matching cells' trials ran two or more forks each. */
    public boolean multiFork(Map<String, String> params, int threads) {
        return cells.stream().anyMatch(c -> c.threads() == threads && c.matches(params) && c.result().forkMeans().size() >= 2);
    }

    private static double cv(List<Double> xs) {
        double mean = xs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double ss = xs.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
        return Math.sqrt(ss / (xs.size() - 1)) / mean;
    }

    /** Median B/op (JMH -prof gc) of the matching cells at {@code threads}; NaN when not measured. */
    public double bytesPerOp(Map<String, String> params, int threads) {
        List<Double> b = new ArrayList<>();
        for (Cell c : cells) {
            if (c.threads() == threads && c.matches(params)) {
                c.result().gcAllocBytesPerOp().ifPresent(b::add);
            }
        }
        return b.isEmpty() ? Double.NaN : Stats.median(b);
    }
}
