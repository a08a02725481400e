package lab.fix.zraminitlock;

import static lab.fix.zraminitlock.ZramInitLock.*;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.fidelity.Calibration;
import lab.analysis.fidelity.LineCost;
import lab.analysis.fidelity.LineCounts;
import lab.analysis.fidelity.NoiseFloor;
import lab.analysis.fidelity.Prediction;
import lab.fix.CostSweep;
import lab.notebook.Fmt;
import lab.notebook.Headline;
import lab.notebook.Parts;
import lab.notebook.PredictionText;
import lab.results.RunDir;

/**
 * The seed's point (randrw on zero pages) from the seed sweep ({@code zram-seed-rR-tT.json}): SRCU
 * against rwsem raw and calibrated to today's zram ({@link Calibration}), each with its A/A floor,
 * how far the sweep pushed the floor ({@link SeedSweep}), and the prediction from the guards'
 * counted shared-line operations ({@link Prediction}). Fills the headline.
 */
final class SeedPoint {
    /** One thread count of one base: rwsem's and srcu's ns per op, srcu over rwsem, the A/A. */
    record Row(int threads, Estimate rwsem, Estimate srcu, Estimate ratio, NoiseFloor floor) {}

    /**
     * Every figure of the seed's point, made: the rows by base ("0": raw; the calibration's base),
     * the calibration (null: none), the fork CVs of the calibrated sweep (null: no calibration), the
     * seed sweep's log (null: none), and the prediction ({@code prediction} null where the run has
     * no calibration, counts or costs; {@code predicted} false where it has a calibration and lacks
     * the counts or costs).
     */
    record Figures(Map<String, List<Row>> byBase, Calibration cal, Parts.ForkCvs cv, SeedSweep sweep, boolean noPrediction,
                   PredictionText.Report prediction) {}

    private SeedPoint() {}

    /** The seed's point of the run's raw {@code dir} at the headline's {@code ht} threads; null where the run predates the seed sweep. */
    static Figures estimate(RunDir run, Path dir, int ht) throws IOException {
        SweepEstimates all = SweepEstimates.read(dir, ZramInitLockRaw.SEED, run::gap);
        if (all.isEmpty()) {
            return null;
        }
        Calibration cal = Calibration.read(dir);
        List<String> bases = new ArrayList<>(List.of("0"));
        if (cal != null && cal.baseNs() > 0) {
            bases.add(Long.toString(cal.baseNs()));
        }
        Map<String, List<Row>> byBase = new LinkedHashMap<>();
        for (String base : bases) {
            SweepEstimates s = all.where("baseNs", base, "0");
            List<Row> rows = new ArrayList<>();
            for (int t : s.threadCounts()) {
                rows.add(new Row(t, s.ns(GuardTable.seedKey(BASE), t), s.ns(GuardTable.seedKey(SRCU), t),
                        s.ratio(GuardTable.seedKey(BASE), GuardTable.seedKey(SRCU), t),
                        s.aa(GuardTable.seedKey(BASE), GuardTable.seedKey(CONTROL), t)));
            }
            byBase.put(base, rows);
        }
        Parts.ForkCvs cv = bases.size() < 2 ? null
                : Parts.ForkCvs.estimate(all.where("baseNs", bases.get(1), "0"), List.of(BASE, SRCU, CONTROL), GuardTable::seedKey, ht);
        SeedSweep sweep = SeedSweep.read(dir);
        if (bases.size() < 2) {
            return new Figures(byBase, null, null, sweep, false, null);
        }
        LineCounts counts = LineCounts.read(dir);
        LineCost costs = CostSweep.read(dir, ZramInitLockRaw.COSTS, run::gap);
        if (counts == null || costs.isEmpty()) {
            return new Figures(byBase, cal, cv, sweep, true, null);
        }
        SweepEstimates calibrated = all.where("baseNs", bases.get(1), "0");
        Prediction p = new Prediction(calibrated, all.where("baseNs", "0", "0"), GuardTable::seedKey, g -> counts.get(g, Map.of("rw", SEED_RW, "pattern", SEED_PATTERN)),
                costs, cal.baseNs(), 0, BASE);
        PredictionText.Report report = PredictionText.estimate(p, List.of(new Prediction.Pair(BASE, SRCU, "SRCU / rwsem, randrw, zero pages")),
                BASE, SRCU, ht, FIX.seedValue(), SEED_WORKERS, "The seed ran 4 workers on a 4-CPU machine, where four threads, not two,"
                        + " meet on the rwsem's line.", cal.baseInterval());
        return new Figures(byBase, cal, cv, sweep, false, report);
    }

    /** The seed's point in words ({@code f} null: the run predates it), filling the headline at {@code ht} threads. */
    static String text(Figures f, int ht, Headline head, Map<String, Object> jvm) {
        StringBuilder b = new StringBuilder("### The seed's point, raw and calibrated, and predicted from the guards' shared lines\n\n");
        if (f == null) {
            return b.append("Not in this run (`raw/zram-init-lock/zram-seed-rR-tT.json`): it predates the seed sweep. The headline's raw"
                    + " figure is the guard table's at the seed's point.\n\n").toString();
        }
        Calibration cal = f.cal();
        if (cal != null) {
            b.append(Parts.calibration(cal));
        } else {
            b.append("No calibration in this run (`raw/zram-init-lock/calibration.json`): neither its kernel side nor a committed run"
                    + " measured zram's CPU per I/O for the seed's job; raw only.\n\n");
        }
        b.append("SRCU against rwsem at the seed's point (randrw, zero pages, LZO-RLE), each guard beside a copy of rwsem (the A/A);"
                + " ns per op per thread, the geometric mean over rounds with its 95% interval:\n\n"
                + "| model | threads | rwsem ns/op | srcu ns/op | srcu / rwsem | A/A: rwsem / rwsem |\n|---|---:|---:|---:|---:|---:|\n");
        Map<String, Object> byBase = new LinkedHashMap<>();
        f.byBase().forEach((base, rows) -> {
            String label = base.equals("0") ? "raw" : "calibrated (+" + base + " ns)";
            Map<String, Object> byT = new LinkedHashMap<>();
            for (Row x : rows) {
                int t = x.threads();
                Estimate r = x.ratio();
                NoiseFloor fl = x.floor();
                b.append("| ").append(label).append(" | ").append(t).append(" | ").append(Fmt.est(x.rwsem(), 1)).append(" | ")
                        .append(Fmt.est(x.srcu(), 1)).append(" | ").append(Parts.ratioCell(r)).append(" | ")
                        .append(fl == null ? "—" : Parts.ratioCell(fl.aa())).append(" |\n");
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("srcu_vs_rwsem", Parts.json(r));
                row.put("aa", fl == null ? null : Parts.json(fl.aa()));
                byT.put(Integer.toString(t), row);
                if (t == ht) {
                    if (base.equals("0")) {
                        head.raw(r).floor(fl).rawFloor(fl);
                    } else {
                        head.calibrated(r).floor(fl).base(cal);
                    }
                }
            }
            byBase.put(base.equals("0") ? "raw" : "calibrated", byT);
        });
        jvm.put("seed_point", byBase);
        b.append('\n');
        if (f.cv() != null) {
            Map<String, Object> cv = new LinkedHashMap<>();
            b.append(Parts.forkCv(f.cv(), cv));
            jvm.put("seed_point_fork_cv", cv.isEmpty() ? null : cv);
        }
        SeedSweep sweep = f.sweep();
        if (sweep != null) {
            b.append(sweep.describe()).append("\n\n");
            jvm.put("seed_sweep_rounds", sweep.rounds().size());
        }
        if (cal == null) {
            return b.toString();
        }
        if (f.noPrediction()) {
            return b.append("No shared-line counts or cost sweep in this run: no prediction.\n\n").toString();
        }
        b.append("Predicted from the shared lines: one one-thread time T for every guard, `rwsem`'s (the calibrated base plus the raw model's one-thread ns), each variant's shared-line operations per I/O as"
                + " counted in the model (the guard's own and the data path's: zero-page writes bump `same_pages` and `pages_stored`),"
                + " and what one such operation costs here at this gap (the cost sweep, same run):\n\n");
        jvm.put("prediction", PredictionText.report(f.prediction(), b, head));
        return b.toString();
    }
}
