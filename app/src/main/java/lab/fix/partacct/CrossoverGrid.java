package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;
import static lab.fix.partacct.VariantTable.gridKey;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.chart.LineChart;
import lab.notebook.Fmt;
import lab.notebook.Parts;

/**
 * Jens Axboe's concern measured ({@code part-acct-grid-rR-tT.json}): all four over the first two
 * ({@code percpu-ref+percpu-inflight} / {@code percpu-ref} throughput) at the grid's highest thread
 * count, per HZ and slots, bios to the partition; where the sum stops the per-cpu counters winning.
 * Every figure is made where the grid is built ({@link #of}); the table, chart and summary print them.
 *
 * @param gain {@link #estimateGain}: null where no round has both cells
 */
record CrossoverGrid(int t, List<String> hzs, List<String> slots, Map<String, Estimate> ratios, Gain gain) {
    /** The grid of the sweep {@code s}, every figure it prints made: each cell's ratio, the gain at HZ 1000 and the fewest slots. */
    static CrossoverGrid of(SweepEstimates s) {
        Comparator<String> numeric = Comparator.comparingInt(Integer::parseInt);
        int t = s.threadCounts().last();
        List<String> hzs = s.values("hz").stream().sorted(numeric).toList();
        List<String> slots = s.values("slots").stream().sorted(numeric).toList();
        Map<String, Estimate> ratios = new LinkedHashMap<>();
        for (String hz : hzs) {
            for (String sl : slots) {
                ratios.put(hz + "/" + sl, s.ratio(gridKey(TWO, hz, sl), gridKey(FOUR, hz, sl), t));
            }
        }
        return new CrossoverGrid(t, hzs, slots, ratios, estimateGain(s, t, hzs, slots));
    }

    Estimate ratio(String hz, String slots) {
        return ratios.get(hz + "/" + slots);
    }

    /** The smallest slot count whose median ratio is at or below 1, and what the sentence says about it. */
    String stops(String hz) {
        String prev = null;
        for (int i = 0; i < slots.size(); i++) {
            Estimate r = ratio(hz, slots.get(i));
            if (r == null) {
                continue;
            }
            if (r.value() <= 1.0) {
                String s = i == 0 || prev == null
                        ? "never beats it: " + Fmt.ratio(r.value()) + " already at " + slots.get(i) + " slots"
                        : "stops beating it at " + slots.get(i) + " slots (" + Fmt.ratio(r.value()) + "; it beat it at " + prev + ")";
                if (r.hasInterval() && r.hi() > 1.0) {
                    s += "; within noise: its 95% interval reaches " + Fmt.ratio(r.hi());
                }
                for (String later : slots.subList(i + 1, slots.size())) {
                    Estimate l = ratio(hz, later);
                    if (l != null && l.value() > 1.0) {
                        s += "; yet it beats it at " + later + " slots (" + Fmt.ratio(l.value())
                                + "): the ratio does not fall with the slots, so this is no crossing, read it as noise";
                        break;
                    }
                }
                return s;
            }
            prev = slots.get(i) + " slots, " + Fmt.ratio(r.value());
        }
        Estimate last = ratio(hz, slots.getLast());
        return "none up to " + slots.getLast() + " slots: all four beat the first two at every slot count measured"
                + (last == null ? "" : " (" + Fmt.ratio(last.value()) + " at " + slots.getLast() + ")");
    }

    Integer stopsAt(String hz) {
        for (String sl : slots) {
            Estimate r = ratio(hz, sl);
            if (r != null && r.value() <= 1.0) {
                return Integer.parseInt(sl);
            }
        }
        return null;
    }

    String text() {
        StringBuilder b = new StringBuilder("All four patches over the first two (`" + FOUR + "` / `" + TWO + "` total throughput), "
                + "bios to the partition (two sums per tick: the partition and part0), " + t + (t == 1 ? " thread" : " threads")
                + ", the geometric mean of per-round ratios with its 95% interval; above 1.00x the per-cpu in-flight counters still win, below it "
                + "the sum has eaten their gain:\n\n| HZ |");
        slots.forEach(sl -> b.append(' ').append(sl).append(" slots |"));
        b.append("\n|---:|");
        slots.forEach(sl -> b.append("---:|"));
        b.append('\n');
        for (String hz : hzs) {
            b.append("| ").append(hz).append(" |");
            for (String sl : slots) {
                Estimate r = ratio(hz, sl);
                b.append(' ').append(r == null ? "n/a" : r.format(2) + "x").append(" |");
            }
            b.append('\n');
        }
        b.append("\nWhere all four stop beating the first two (the smallest slot count whose estimate is at or below 1.00x):\n\n");
        for (String hz : hzs) {
            b.append("- HZ ").append(hz).append(": ").append(stops(hz)).append('\n');
        }
        return b.append('\n').toString();
    }

    String chart() {
        LineChart c = new LineChart("all four patches / the first two: throughput at " + t + " threads, bios to a partition",
                "possible CPUs summed (slots)", "all four / percpu-ref throughput (x)").log2X().yFromZero(false)
                .markY(1.0, "1.0 = the sum ate the gain");
        for (String hz : hzs) {
            List<LineChart.Point> pts = new ArrayList<>();
            for (String sl : slots) {
                Estimate r = ratio(hz, sl);
                if (r != null) {
                    pts.add(r.hasInterval() ? LineChart.Point.of(Integer.parseInt(sl), r.value(), r.lo(), r.hi())
                            : LineChart.Point.of(Integer.parseInt(sl), r.value(), r.value(), r.value()));
                }
            }
            if (!pts.isEmpty()) {
                c.series("HZ " + hz, pts);
            }
        }
        return c.toSvg();
    }

    Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("threads", t);
        Map<String, Object> ratios = new LinkedHashMap<>();
        Map<String, Object> stop = new LinkedHashMap<>();
        for (String hz : hzs) {
            Map<String, Object> bySlots = new LinkedHashMap<>();
            for (String sl : slots) {
                bySlots.put(sl, Parts.json(ratio(hz, sl)));
            }
            ratios.put(hz, bySlots);
            stop.put(hz, stopsAt(hz));
        }
        out.put("four_over_two", ratios);
        out.put("stops_beating_at_slots", stop);
        return out;
    }

    /**
     * The gain of all four over the first two at HZ 1000 and the fewest slots, each within a round and
     * estimated over rounds: ns per I/O per thread saved, the I/O rate (all threads, per second) and
     * their product, ns of CPU saved per second; null where no round has both.
     */
    private static Gain estimateGain(SweepEstimates s, int t, List<String> hzs, List<String> slots) {
        String hz = hzs.contains(HZ) ? HZ : hzs.getLast();
        Map<String, String> two = gridKey(TWO, hz, slots.getFirst());
        Map<String, String> four = gridKey(FOUR, hz, slots.getFirst());
        Estimate ns = s.perRound(two, four, t, "saved", (ns2, ns4) -> ns2 - ns4);
        if (ns == null) {
            return null;
        }
        Estimate rate = s.throughput(four, t);
        return new Gain(ns, rate.times(1e6), s.perRound(two, four, t, "saved per second", (ns2, ns4) -> (ns2 - ns4) * t * 1e9 / ns4));
    }

    /** {@link #gain}: ns per I/O saved, I/Os per second, ns of CPU saved per second. */
    record Gain(Estimate nsPerIo, Estimate iosPerS, Estimate nsPerS) {}
}
