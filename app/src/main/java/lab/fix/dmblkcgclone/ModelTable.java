package lab.fix.dmblkcgclone;

import static lab.fix.dmblkcgclone.DmBlkcgClone.*;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.chart.LineChart;
import lab.analysis.fidelity.NoiseFloor;
import lab.engine.bench.DmBlkcgClone.Result;
import lab.fix.dmblkcgclone.ModelRuns.Point;
import lab.notebook.Fmt;
import lab.notebook.Parts;

/**
 * The model's tables: per point (stack, path, weights) both variants' a/b ratios against the
 * weights' and against 1, the convergence times and where the disk charged the bytes (raw); the
 * calibrated ratios beside the raw ones with the charges' prediction; and the chart of the
 * cumulative ratio over time at the headline's point.
 */
final class ModelTable {
    private ModelTable() {}

    /** The check at {@code p}: {@code transfer} within {@link DmBlkcgClone#WITHIN} of the weights' ratio, {@code lost} of 1. */
    static boolean holds(ModelRuns m, Point p) {
        Estimate lost = m.ratio(LOST, p);
        Estimate transfer = m.ratio(TRANSFER, p);
        return lost != null && transfer != null && Math.abs(transfer.value() / p.weights().ratio() - 1) <= WITHIN
                && Math.abs(lost.value() - 1) <= WITHIN;
    }

    /** The check in words: "yes", or why not, read from the charges. */
    private static String check(ModelRuns m, Point p) {
        if (holds(m, p)) {
            return p.weights().a() == p.weights().b() ? "yes (equal weights: 1:1 either way)" : "yes";
        }
        Estimate lost = m.ratio(LOST, p);
        Estimate transfer = m.ratio(TRANSFER, p);
        if (lost == null || transfer == null) {
            return "n/a";
        }
        StringBuilder b = new StringBuilder("no: ");
        if (Math.abs(lost.value() - 1) > WITHIN && "by task".equals(how(m, LOST, p))) {
            b.append("`" + LOST + "` keeps the weights too, its bios charged by task (the writer's own thread submits each clone)");
        } else if (Math.abs(transfer.value() / p.weights().ratio() - 1) > WITHIN && rootShare(m, TRANSFER, p) >= 1 - Charges.CLEAR) {
            b.append("`" + TRANSFER + "` loses them too, every byte charged to the root group (a kernel thread, the pool's worker,"
                    + " submits the bios, and they carry no association to copy)");
        } else {
            b.append("`" + LOST + "` " + Fmt.f(lost.value(), 2) + ", `" + TRANSFER + "` " + Fmt.f(transfer.value(), 2));
        }
        return b.toString();
    }

    private static String how(ModelRuns m, String variant, Point p) {
        List<Charges> cs = m.charges(variant, p);
        return cs.isEmpty() ? null : cs.getFirst().how();
    }

    private static double rootShare(ModelRuns m, String variant, Point p) {
        return share(m, variant, p, Charges::root);
    }

    /** Where the disk charged {@code variant}'s bytes at {@code p}: "a 67% / b 33% / root 0%, tagged", medians over rounds. */
    private static String charged(ModelRuns m, String variant, Point p) {
        List<Charges> cs = m.charges(variant, p);
        if (cs.isEmpty()) {
            return "—";
        }
        double a = share(m, variant, p, Charges::a);
        double b = share(m, variant, p, Charges::b);
        String how = cs.getFirst().how();
        return pct(a) + " / " + pct(b) + " / " + pct(share(m, variant, p, Charges::root)) + (how == null ? "" : ", " + how);
    }

    /** One share of the charges of {@code variant} at {@code p}: the median over rounds the runs made; NaN where none. */
    private static double share(ModelRuns m, String variant, Point p, java.util.function.ToDoubleFunction<Charges> f) {
        Charges c = m.charged(variant, p);
        return c == null ? Double.NaN : f.applyAsDouble(c);
    }

    private static String pct(double share) {
        return Double.isNaN(share) ? "—" : Fmt.f(100 * share, 0) + "%";
    }

    private static String converge(ModelRuns m, String variant, Point p) {
        Stats.Spread s = m.convergeMs(variant, p);
        int never = m.byRound(variant, p).size() - (s == null ? 0 : s.n());
        return (s == null ? "—" : Fmt.spread(s, 0)) + (never > 0 ? " (" + never + " round(s) never)" : "");
    }

    private static String predicted(Double p) {
        return p == null ? "no prediction (mixed charges)" : Fmt.f(p, 2) + "x";
    }

    /** Table (1): the raw model at every point, checked, with convergence and charges; {@code out} gets its figures. */
    static String raw(ModelRuns m, NoiseFloor floor, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("| stack | path | weights a:b | `" + LOST + "` a/b | `" + TRANSFER + "` a/b | weights ask |"
                + " transfer within " + pct(WITHIN) + " of the weights, lost of 1 | converged after, ms (`" + LOST + "` / `" + TRANSFER
                + "`) | charged a / b / root, `" + LOST + "` | charged a / b / root, `" + TRANSFER + "` |\n"
                + "|---|---|---|---:|---:|---:|---|---|---|---|\n");
        for (Point p : m.points()) {
            b.append("| ").append(p.stack()).append(" | ").append(p.path()).append(" | ").append(p.weights()).append(" | ")
                    .append(Parts.ratioCell(m.ratio(LOST, p))).append(" | ").append(Parts.ratioCell(m.ratio(TRANSFER, p)))
                    .append(" | ").append(Fmt.f(p.weights().ratio(), 2)).append("x | ").append(check(m, p)).append(" | ")
                    .append(converge(m, LOST, p)).append(" / ").append(converge(m, TRANSFER, p)).append(" | ")
                    .append(charged(m, LOST, p)).append(" | ").append(charged(m, TRANSFER, p)).append(" |\n");
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("weights_ratio", p.weights().ratio());
            row.put("holds", holds(m, p));
            for (String v : VARIANTS) {
                row.put(v, variant(m, v, p));
            }
            out.put(key(p), row);
        }
        return b.append('\n').toString();
    }

    /** One variant's figures at {@code p} for summary.json. */
    private static Map<String, Object> variant(ModelRuns m, String v, Point p) {
        List<Charges> cs = m.charges(v, p);
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("ratio", Parts.json(m.ratio(v, p)));
        x.put("converge_ms", Parts.json(m.convergeMs(v, p)));
        x.put("mib_per_sec", Parts.json(m.totalMibPerSec(v, p)));
        x.put("charged_a", nullable(share(m, v, p, Charges::a)));
        x.put("charged_b", nullable(share(m, v, p, Charges::b)));
        x.put("charged_root", nullable(share(m, v, p, Charges::root)));
        x.put("charged_how", cs.isEmpty() ? null : cs.getFirst().how());
        x.put("own_a", nullable(share(m, v, p, Charges::ownA)));
        x.put("own_b", nullable(share(m, v, p, Charges::ownB)));
        x.put("predicted", m.predicted(v, p));
        return x;
    }

    private static Double nullable(double v) {
        return Double.isNaN(v) ? null : v;
    }

    static String key(Point p) {
        return p.stack() + "/" + p.path() + "/" + p.weights();
    }

    /**
     * Table (2): at each point of the calibrated set, per variant the raw model's charges'
     * prediction, the raw ratio and the calibrated one (each against its own floor), and the raw
     * writers' own-group fractions; where there is no calibrated set, the raw points with the
     * prediction alone.
     */
    static String sideBySide(ModelRuns raw, ModelRuns cal, NoiseFloor rawFloor, NoiseFloor calFloor, Map<String, Object> out) {
        StringBuilder b = new StringBuilder("| stack | path | weights a:b |");
        for (String v : VARIANTS) {
            b.append(" `").append(v).append("` predicted | raw | calibrated | own group a / b |");
        }
        b.append("\n|---|---|---|").append("---:|---:|---:|---|".repeat(VARIANTS.size())).append('\n');
        for (Point p : (cal.isEmpty() ? raw : cal).points()) {
            b.append("| ").append(p.stack()).append(" | ").append(p.path()).append(" | ").append(p.weights()).append(" |");
            Map<String, Object> row = new LinkedHashMap<>();
            for (String v : VARIANTS) {
                Double pr = raw.predicted(v, p);
                List<Charges> cs = raw.charges(v, p);
                b.append(' ').append(predicted(pr)).append(" | ").append(Parts.ratioCell(raw.ratio(v, p))).append(" | ")
                        .append(cal.isEmpty() ? "—" : Parts.ratioCell(cal.ratio(v, p))).append(" | ")
                        .append(pct(share(raw, v, p, Charges::ownA))).append(" / ").append(pct(share(raw, v, p, Charges::ownB)))
                        .append(" |");
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("predicted", pr);
                x.put("raw", Parts.json(raw.ratio(v, p)));
                x.put("calibrated", Parts.json(cal.ratio(v, p)));
                row.put(v, x);
            }
            b.append('\n');
            out.put(key(p), row);
        }
        return b.append('\n').toString();
    }

    /** The cumulative a/b ratio over time at {@code p}, both variants, round 1 of {@code m}; null where round 1 lacks either. */
    static String chart(ModelRuns m, Point p) {
        LineChart c = new LineChart("cumulative a/b bandwidth, " + p.stack() + ", " + p.path() + ", weights " + p.weights() + ", round 1",
                "ms from the start", "a's bytes / b's bytes");
        long ramp = -1;
        for (String v : VARIANTS) {
            Result r = m.byRound(v, p).get(1);
            if (r == null) {
                return null;
            }
            ramp = r.config().rampMs();
            c.series(v, ModelRuns.cumulativeRatio(r).stream().map(x -> LineChart.Point.of(x[0], x[1])).toList());
        }
        return c.markY(p.weights().ratio(), "weights " + p.weights() + " = " + Fmt.f(p.weights().ratio(), 2))
                .markX(ramp, "window starts").toSvg();
    }
}
