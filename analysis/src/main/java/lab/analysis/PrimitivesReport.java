package lab.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The refscale-style table of the primitives benchmark, computed from {@code raw/} alone.
 *
 * <p>Raw files are JMH JSON named {@code primitives-rR-tT.json}: round R at T threads, every
 * primitive in each. Rounds interleave the thread counts, so a ratio between thread counts is
 * taken within one round (the same minute of machine noise) and the spread is across rounds.
 * The score is JMH's AverageTime: ns per get+put pair, per thread.
 */
public final class PrimitivesReport {
    private static final Pattern NAME = Pattern.compile("primitives-r(\\d+)-t(\\d+)\\.json");

    /** Score of one primitive at one thread count in one round. */
    record Cell(int round, int threads, String primitive, JmhResult result) {}

    private final List<Cell> cells;

    private PrimitivesReport(List<Cell> cells) {
        this.cells = cells;
    }

    /** Reads every {@code primitives-rR-tT.json} in {@code rawDir}. */
    public static PrimitivesReport read(Path rawDir) throws IOException, MalformedResultException {
        List<Cell> cells = new ArrayList<>();
        try (Stream<Path> files = Files.list(rawDir)) {
            for (Path f : files.sorted().toList()) {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (!m.matches()) {
                    continue;
                }
                for (JmhResult r : JmhResult.read(f)) {
                    String prim = r.params().get("primitive");
                    if (prim == null) {
                        throw new MalformedResultException(f, "a result has no 'primitive' param");
                    }
                    cells.add(new Cell(Integer.parseInt(m.group(1)), r.threads(), prim, r));
                }
            }
        }
        if (cells.isEmpty()) {
            throw new MalformedResultException(rawDir, "no primitives-rR-tT.json results");
        }
        return new PrimitivesReport(cells);
    }

    public SortedSet<Integer> threadCounts() {
        SortedSet<Integer> t = new TreeSet<>();
        cells.forEach(c -> t.add(c.threads()));
        return t;
    }

    public int rounds() {
        return (int) cells.stream().mapToInt(Cell::round).distinct().count();
    }

    /** Primitives in the order the benchmark ran them. */
    public List<String> primitives() {
        return cells.stream().map(Cell::primitive).distinct().toList();
    }

    /** ns per pair per thread, over every measured iteration of every round. */
    public Stats.Spread nsPerPair(String primitive, int threads) {
        return Stats.spread(nsSamples(primitive, threads));
    }

    /** Bytes allocated per pair (JMH -prof gc, gc.alloc.rate.norm), median over rounds; NaN without it. */
    public double bytesPerPair(String primitive, int threads) {
        List<Double> b = new ArrayList<>();
        cells.stream().filter(c -> c.primitive().equals(primitive) && c.threads() == threads)
                .forEach(c -> c.result().gcAllocBytesPerOp().ifPresent(b::add));
        return b.isEmpty() ? Double.NaN : Stats.median(b);
    }

    /** Every measured iteration's ns per pair per thread, all rounds; empty when not run. */
    public List<Double> nsSamples(String primitive, int threads) {
        List<Double> s = new ArrayList<>();
        cells.stream().filter(c -> c.primitive().equals(primitive) && c.threads() == threads)
                .forEach(c -> s.addAll(c.result().samples().isEmpty() ? List.of(c.result().score()) : c.result().samples()));
        return s;
    }

    /**
     * Total throughput at {@code threads} over total throughput at 1 thread, per round
     * ({@code T * ns(1) / ns(T)}): 1 means no scaling at all, T means perfect scaling,
     * below 1 means the threads together do less than one thread alone.
     */
    public Stats.Spread scaling(String primitive, int threads) {
        Map<Integer, Double> one = scoresByRound(primitive, 1);
        Map<Integer, Double> at = scoresByRound(primitive, threads);
        List<Double> ratios = new ArrayList<>();
        for (var e : at.entrySet()) {
            Double base = one.get(e.getKey());
            if (base != null) {
                ratios.add(threads * base / e.getValue());
            }
        }
        return ratios.isEmpty() ? null : Stats.spread(ratios);
    }

    private Map<Integer, Double> scoresByRound(String primitive, int threads) {
        Map<Integer, Double> m = new TreeMap<>();
        cells.stream().filter(c -> c.primitive().equals(primitive) && c.threads() == threads)
                .forEach(c -> m.put(c.round(), c.result().score()));
        return m;
    }

    /** A machine-readable summary: per primitive, per thread count, median ns and scaling. */
    public Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String p : primitives()) {
            Map<String, Object> byT = new LinkedHashMap<>();
            for (int t : threadCounts()) {
                Map<String, Object> row = new LinkedHashMap<>();
                Stats.Spread ns = nsPerPair(p, t);
                row.put("ns_per_pair_median", ns.median());
                row.put("ns_per_pair_min", ns.min());
                row.put("ns_per_pair_max", ns.max());
                row.put("samples", ns.n());
                Stats.Spread sc = scaling(p, t);
                row.put("throughput_vs_1_thread_median", sc == null ? null : sc.median());
                double bytes = bytesPerPair(p, t);
                if (!Double.isNaN(bytes)) {
                    row.put("gc_bytes_per_pair", bytes);
                }
                byT.put(Integer.toString(t), row);
            }
            out.put(p, byT);
        }
        return out;
    }

    /** The markdown section for a notebook; {@code command} is what reproduces it. */
    public String markdown(String command) {
        StringBuilder sb = new StringBuilder();
        sb.append("## Primitives: ns per get+put pair, per thread\n\n");
        sb.append("JMH AverageTime, ").append(rounds()).append(" round(s) interleaving the thread counts; ")
          .append("median [min–max] over every measured iteration of every round.\n\n");
        sb.append("| primitive |");
        threadCounts().forEach(t -> sb.append(" ").append(t).append(t == 1 ? " thread |" : " threads |"));
        threadCounts().stream().filter(t -> t > 1)
                .forEach(t -> sb.append(" total throughput ").append(t).append("t / 1t |"));
        sb.append("\n|---|");
        threadCounts().forEach(t -> sb.append("---:|"));
        threadCounts().stream().filter(t -> t > 1).forEach(t -> sb.append("---:|"));
        sb.append('\n');
        for (String p : primitives()) {
            sb.append("| `").append(p).append("` |");
            for (int t : threadCounts()) {
                sb.append(' ').append(nsPerPair(p, t).format(1)).append(" |");
            }
            for (int t : threadCounts()) {
                if (t > 1) {
                    Stats.Spread sc = scaling(p, t);
                    sb.append(' ').append(sc == null ? "n/a" : sc.format(2) + "x").append(" |");
                }
            }
            sb.append('\n');
        }
        sb.append("\nThroughput ratio: T × ns(1) / ns(T) per round; T× is perfect scaling, ")
          .append("below 1× the threads together do less than one alone.\n\n");
        sb.append("Reproduce: `").append(command).append("`\n");
        return sb.toString();
    }
}
