package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.chart.LineChart;
import lab.notebook.Fmt;
import lab.notebook.Parts;

/**
 * The {@code part_in_flight()} sum itself ({@code part-acct-sum-rR.json}): ns per sum by slots, its
 * straight-line fit, its share of a CPU per HZ and target, and where the fit says it would eat
 * the gain of all four over the first two (an extrapolation).
 */
final class SumCost {
    private final Map<Integer, Estimate> ns;
    private final Fit fit;

    private SumCost(Map<Integer, Estimate> ns, Fit fit) {
        this.ns = ns;
        this.fit = fit;
    }

    /** The benchmark: ns per sum by slots, per round. */
    static SumCost of(SweepEstimates s) {
        Map<Integer, Estimate> ns = new TreeMap<>();
        for (String sl : s.values("slots")) {
            for (int t : s.threadCounts()) {
                Estimate v = s.ns(Map.of("slots", sl), t);
                if (v != null) {
                    ns.put(Integer.parseInt(sl), v);
                }
            }
        }
        List<double[]> xy = new ArrayList<>();
        ns.forEach((slots, v) -> xy.add(new double[] {slots, v.value()}));
        Stats.Line l = Stats.line(xy);
        return new SumCost(ns, l == null ? null : new Fit(l.a(), l.b()));
    }

    /** ns per sum ~ a + b * slots over the slots' estimates; null with fewer than two slot counts. */
    Fit fit() {
        return fit;
    }

    String text() {
        StringBuilder b = new StringBuilder("The sum itself: one `part_in_flight()` over the slots, one thread "
                + "(`PartInFlightSum`), ns per sum, the geometric mean over rounds with its 95% interval:\n\n| slots | ns per sum | ns per slot |\n|---:|---:|---:|\n");
        ns.forEach((sl, v) -> b.append("| ").append(sl).append(" | ").append(Fmt.est(v, 1)).append(" | ")
                .append(Fmt.f(v.value() / sl, 2)).append(" |\n"));
        Fit f = fit();
        if (f != null) {
            b.append("\nStraight-line fit over the estimates: ns per sum ≈ ").append(Fmt.f(f.a(), 2)).append(" + ")
                    .append(Fmt.f(f.b(), 3)).append(" x slots.\n");
        }
        return b.append('\n').toString();
    }

    String chart() {
        LineChart c = new LineChart("one part_in_flight() sum: ns by possible CPUs summed", "slots", "ns per sum").log2X();
        List<LineChart.Point> pts = new ArrayList<>();
        ns.forEach((sl, v) -> pts.add(Parts.point(sl, v)));
        c.series("measured", pts);
        Fit f = fit();
        if (f != null) {
            c.series("fit a + b x slots", ns.keySet().stream().map(sl -> LineChart.Point.of(sl, f.at(sl))).toList());
        }
        return c.toSvg();
    }

    /** HZ x sums per tick x ns per sum, as a share of one CPU, per slots, HZ and target. */
    String cpuTable() {
        StringBuilder b = new StringBuilder("Jens's concern as CPU time: HZ x sums per tick (1 for a whole-disk bio: part0; 2 for "
                + "a partition bio: the partition and part0) x ns per sum (the estimate), as a share of one CPU, whatever the I/O rate "
                + "(the sum runs at most once per jiffy per partition):\n\n| slots |");
        for (int hz : HZS) {
            b.append(" HZ ").append(hz).append(" disk | HZ ").append(hz).append(" part |");
        }
        b.append("\n|---:|");
        HZS.forEach(hz -> b.append("---:|---:|"));
        b.append('\n');
        ns.forEach((sl, v) -> {
            b.append("| ").append(sl).append(" |");
            for (int hz : HZS) {
                for (String target : TARGETS) {
                    b.append(' ').append(pct(cpuShare(hz, SUMS_PER_TICK.get(target), v.value()))).append(" |");
                }
            }
            b.append('\n');
        });
        return b.append('\n').toString();
    }

    Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> bySlots = new LinkedHashMap<>();
        ns.forEach((sl, v) -> bySlots.put(Integer.toString(sl), Parts.json(v)));
        out.put("ns_per_sum", bySlots);
        Fit f = fit();
        out.put("fit_a_ns", f == null ? null : f.a());
        out.put("fit_b_ns_per_slot", f == null ? null : f.b());
        return out;
    }

    /** ns per sum ~ a + b * slots, least squares over the per-slot estimates. */
    record Fit(double a, double b) {
        double at(double slots) {
            return a + b * slots;
        }
    }

    /** Share of one CPU spent summing: HZ x sums per tick x ns per sum / 1e9. */
    static double cpuShare(int hz, int sumsPerTick, double nsPerSum) {
        return hz * sumsPerTick * nsPerSum / 1e9;
    }

    /** A share as a percent with three significant digits, never an exponent. */
    static String pct(double share) {
        if (Double.isNaN(share)) {
            return "n/a";
        }
        if (share == 0) {
            return "0%";
        }
        BigDecimal p = new BigDecimal(share * 100).round(new MathContext(3, RoundingMode.HALF_EVEN));
        return (p.precision() < 3 ? p.setScale(p.scale() + 3 - p.precision(), RoundingMode.UNNECESSARY) : p).toPlainString() + "%";
    }

    /**
     * Where the per-second sum cost, HZ x 2 x (a + b x slots), would equal the per-second gain of
     * all four over the first two measured at HZ 1000 and the fewest slots: an extrapolation.
     */
    static String extrapolation(CrossoverGrid g, Fit fit, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("**Extrapolated crossover (an extrapolation of the model, not a measurement).** ");
        if (g == null || fit == null) {
            return b.append("It needs both the grid and the sum benchmark, and this run lacks ").append(g == null ? "the grid" : "the sum")
                    .append(".\n\n").toString();
        }
        CrossoverGrid.Gain gain = g.gain();
        if (gain == null) {
            return b.append("The grid has no HZ ").append(HZ).append(" cells at ").append(g.slots().getFirst())
                    .append(" slots for both variants.\n\n").toString();
        }
        double gainNs = gain.nsPerIo().value();
        double rate = gain.iosPerS().value();
        double perSecond = gain.nsPerS().value();
        out.put("gain_ns_per_io", gainNs);
        out.put("ios_per_s", rate);
        out.put("gain_ns_per_s", perSecond);
        b.append("The gain of all four over the first two at HZ ").append(HZ).append(", ").append(g.slots().getFirst()).append(" slots, ")
                .append(g.t()).append(" threads: ").append(Fmt.f(gainNs, 1)).append(" ns per I/O per thread at ")
                .append(Fmt.f(rate / 1e6, 2)).append(" M I/O/s, i.e. the first two would spend ").append(Fmt.f(perSecond / 1e9, 2))
                .append(" CPU-seconds a second more for all four's I/O rate (estimates over rounds). The sum's cost per second, HZ x 2 (a partition bio) x (")
                .append(Fmt.f(fit.a(), 2)).append(" + ").append(Fmt.f(fit.b(), 3))
                .append(" x slots) ns, equals that gain at slots = (gain / (HZ x 2) - a) / b:\n\n");
        if (perSecond <= 0) {
            b.append("No crossover to find: all four do not beat the first two even at the fewest slots, so there is no gain for "
                    + "the sum to eat.\n\n");
            HZS.forEach(hz -> out.put(Integer.toString(hz), null));
            return b.toString();
        }
        if (fit.b() <= 0) {
            b.append("No crossover to find: in this fit the sum's cost does not grow with the slots (b <= 0).\n\n");
            HZS.forEach(hz -> out.put(Integer.toString(hz), null));
            return b.toString();
        }
        int measured = g.slots().stream().mapToInt(Integer::parseInt).max().orElseThrow();
        b.append("| HZ | extrapolated crossover (slots) |\n|---:|---:|\n");
        for (int hz : HZS) {
            double slots = (perSecond / (hz * 2.0) - fit.a()) / fit.b();
            out.put(Integer.toString(hz), slots);
            b.append("| ").append(hz).append(" | ").append(slots <= 0 ? "none: the sum's fixed cost alone exceeds the gain"
                    : "≈" + String.format(Locale.ROOT, "%.0f", slots) + (slots > measured ? " (beyond the " + measured + " measured)" : ""))
                    .append(" |\n");
        }
        return b.append("\nA straight line through a handful of slot counts, and one measured gain carried to every HZ: the sum's "
                + "cache misses on a real many-socket machine are not in it. Read it as the scale at which the model says Jens's "
                + "concern would bite, beside the measured grid above.\n\n").toString();
    }
}
