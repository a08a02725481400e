package lab.fix.primitives;

import java.io.IOException;
import lab.analysis.JmhSweep;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.MalformedResultException;
import lab.analysis.estimate.Estimate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * The refscale-style table of the primitives benchmark, computed from {@code raw/} alone.
 *
 * <p>Raw files are JMH JSON named {@code primitives-rR-tT.json} (read as a {@link JmhSweep}): round R at T threads, every
 * primitive in each. Rounds interleave the thread counts, so a ratio between thread counts is
 * taken within one round (the same minute of machine noise) and the spread is across rounds.
 * The score is JMH's AverageTime: ns per get+put pair, per thread. Every figure is made as the
 * report is read; its table and summary print them.
 */
public final class PrimitivesReport {
    /** One primitive at one thread count: ns per pair, total throughput, scaling over one thread, B/op (NaN: none). */
    private record Cell(Estimate ns, Estimate throughput, Estimate scaling, double bytes) {}

    private final JmhSweep sweep;
    private final SweepEstimates est;
    /** By primitive and threads: every figure the table, the charts and the summary print, made with the report. */
    private final Map<String, Cell> cells = new LinkedHashMap<>();

    private PrimitivesReport(JmhSweep sweep, Path rawDir) {
        this.sweep = sweep;
        this.est = SweepEstimates.of(sweep, SweepEstimates.name(rawDir, PrimitivesRaw.PREFIX));
        for (String p : primitives()) {
            for (int t : threadCounts()) {
                Map<String, String> k = Map.of("primitive", p);
                cells.put(p + "/" + t, new Cell(est.ns(k, t), est.throughput(k, t), est.scaling(k, t), est.bytesPerOp(k, t)));
            }
        }
    }

    private Cell cell(String primitive, int threads) {
        Cell c = cells.get(primitive + "/" + threads);
        return c == null ? new Cell(null, null, null, Double.NaN) : c;
    }

    /** Reads every {@code primitives-rR-tT.json} in {@code rawDir}; the first broken file is the error. */
    public static PrimitivesReport read(Path rawDir) throws IOException, MalformedResultException {
        List<MalformedResultException> broken = new ArrayList<>();
        JmhSweep sweep = JmhSweep.read(rawDir, PrimitivesRaw.PREFIX, broken::add);
        if (!broken.isEmpty()) {
            throw broken.getFirst();
        }
        if (sweep.isEmpty()) {
            throw new MalformedResultException(rawDir, "no primitives-rR-tT.json results");
        }
        for (JmhSweep.Cell c : sweep.cells()) {
            if (c.params().get("primitive") == null) {
                throw new MalformedResultException(PrimitivesRaw.file(rawDir, c.round(), c.threads()),
                        "a result has no 'primitive' param");
            }
        }
        return new PrimitivesReport(sweep, rawDir);
    }

    public SortedSet<Integer> threadCounts() {
        return sweep.threadCounts();
    }

    public int rounds() {
        return sweep.rounds();
    }

    /** Primitives in the order the benchmark ran them. */
    public List<String> primitives() {
        return sweep.values("primitive");
    }

    /** ns per pair per thread: the geometric mean of the rounds' scores with its 95% interval; null where not run. */
    public Estimate nsPerPair(String primitive, int threads) {
        return cell(primitive, threads).ns();
    }

    /** Total throughput, M pairs per second over all threads; null where not run. */
    public Estimate throughput(String primitive, int threads) {
        return cell(primitive, threads).throughput();
    }

    /** The estimation stage over the sweep the report reads, for the figures a section makes of it beside these (LKP rows). */
    public SweepEstimates estimates() {
        return est;
    }

    /** Bytes allocated per pair (JMH -prof gc, gc.alloc.rate.norm), median over rounds; NaN without it. */
    public double bytesPerPair(String primitive, int threads) {
        return cell(primitive, threads).bytes();
    }

    /**
     * Total throughput at {@code threads} over total throughput at 1 thread, per round
     * ({@code T * ns(1) / ns(T)}), estimated over rounds: 1 means no scaling at all, T means
     * perfect scaling, below 1 means the threads together do less than one thread alone; null
     * without a round at both.
     */
    public Estimate scaling(String primitive, int threads) {
        return cell(primitive, threads).scaling();
    }

    /** A machine-readable summary: per primitive, per thread count, median ns and scaling. */
    public Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String p : primitives()) {
            Map<String, Object> byT = new LinkedHashMap<>();
            for (int t : threadCounts()) {
                Map<String, Object> row = new LinkedHashMap<>();
                Estimate ns = nsPerPair(p, t);
                row.put("ns_per_pair", ns == null ? null : ns.json());
                Estimate sc = scaling(p, t);
                row.put("throughput_vs_1_thread", sc == null ? null : sc.json());
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
          .append("JMH's score per round, the geometric mean over rounds with its 95% interval (one round: the score alone).\n\n");
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
                Estimate ns = nsPerPair(p, t);
                sb.append(' ').append(ns == null ? "—" : ns.format(1)).append(" |");
            }
            for (int t : threadCounts()) {
                if (t > 1) {
                    Estimate sc = scaling(p, t);
                    sb.append(' ').append(sc == null ? "n/a" : sc.format(2) + "x").append(" |");
                }
            }
            sb.append('\n');
        }
        sb.append("\nThroughput ratio: T × ns(1) / ns(T) per round, estimated over rounds; T× is perfect scaling, ")
          .append("below 1× the threads together do less than one alone.\n\n");
        sb.append("Reproduce: `").append(command).append("`\n");
        return sb.toString();
    }
}
