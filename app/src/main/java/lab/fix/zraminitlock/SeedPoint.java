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
    private SeedPoint() {}

    static String text(RunDir run, Path dir, int ht, Headline head, Map<String, Object> jvm) throws IOException {
        StringBuilder b = new StringBuilder("### The seed's point, raw and calibrated, and predicted from the guards' shared lines\n\n");
        SweepEstimates all = SweepEstimates.read(dir, ZramInitLockRaw.SEED, run::gap);
        if (all.isEmpty()) {
            return b.append("Not in this run (`raw/zram-init-lock/zram-seed-rR-tT.json`): it predates the seed sweep. The headline's raw"
                    + " figure is the guard table's at the seed's point.\n\n").toString();
        }
        Calibration cal = Calibration.read(dir);
        List<String> bases = new ArrayList<>(List.of("0"));
        if (cal != null && cal.baseNs() > 0) {
            bases.add(Long.toString(cal.baseNs()));
            b.append(Parts.calibration(cal));
        } else {
            b.append("No calibration in this run (`raw/zram-init-lock/calibration.json`): neither its kernel side nor a committed run"
                    + " measured zram's CPU per I/O for the seed's job; raw only.\n\n");
        }
        b.append("SRCU against rwsem at the seed's point (randrw, zero pages, LZO-RLE), each guard beside a copy of rwsem (the A/A);"
                + " ns per op per thread, the geometric mean over rounds with its 95% interval:\n\n"
                + "| model | threads | rwsem ns/op | srcu ns/op | srcu / rwsem | A/A: rwsem / rwsem |\n|---|---:|---:|---:|---:|---:|\n");
        Map<String, Object> byBase = new LinkedHashMap<>();
        for (String base : bases) {
            SweepEstimates s = all.where("baseNs", base, "0");
            String label = base.equals("0") ? "raw" : "calibrated (+" + base + " ns)";
            Map<String, Object> byT = new LinkedHashMap<>();
            for (int t : s.threadCounts()) {
                Estimate r = s.ratio(GuardTable.seedKey(BASE), GuardTable.seedKey(SRCU), t);
                NoiseFloor f = s.aa(GuardTable.seedKey(BASE), GuardTable.seedKey(CONTROL), t);
                b.append("| ").append(label).append(" | ").append(t).append(" | ").append(ns(s, BASE, t)).append(" | ")
                        .append(ns(s, SRCU, t)).append(" | ").append(Parts.ratioCell(r)).append(" | ")
                        .append(f == null ? "—" : Parts.ratioCell(f.aa())).append(" |\n");
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("srcu_vs_rwsem", Parts.json(r));
                row.put("aa", f == null ? null : Parts.json(f.aa()));
                byT.put(Integer.toString(t), row);
                if (t == ht) {
                    if (base.equals("0")) {
                        head.raw(r).floor(f).rawFloor(f);
                    } else {
                        head.calibrated(r).floor(f).base(cal);
                    }
                }
            }
            byBase.put(base.equals("0") ? "raw" : "calibrated", byT);
        }
        jvm.put("seed_point", byBase);
        b.append('\n');
        if (bases.size() >= 2) {
            Map<String, Object> cv = new LinkedHashMap<>();
            b.append(Parts.forkCv(all.where("baseNs", bases.get(1), "0"), List.of(BASE, SRCU, CONTROL), GuardTable::seedKey, ht, cv));
            jvm.put("seed_point_fork_cv", cv.isEmpty() ? null : cv);
        }
        SeedSweep sweep = SeedSweep.read(dir);
        if (sweep != null) {
            b.append(sweep.describe()).append("\n\n");
            jvm.put("seed_sweep_rounds", sweep.rounds().size());
        }
        if (bases.size() < 2) {
            return b.toString();
        }
        LineCounts counts = LineCounts.read(dir);
        LineCost costs = CostSweep.read(dir, ZramInitLockRaw.COSTS, run::gap);
        if (counts == null || costs.isEmpty()) {
            return b.append("No shared-line counts or cost sweep in this run: no prediction.\n\n").toString();
        }
        SweepEstimates calibrated = all.where("baseNs", bases.get(1), "0");
        Prediction p = new Prediction(calibrated, all.where("baseNs", "0", "0"), GuardTable::seedKey, g -> counts.get(g, Map.of("rw", SEED_RW, "pattern", SEED_PATTERN)),
                costs, cal.baseNs(), 0, BASE);
        b.append("Predicted from the shared lines: one one-thread time T for every guard, `rwsem`'s (the calibrated base plus the raw model's one-thread ns), each variant's shared-line operations per I/O as"
                + " counted in the model (the guard's own and the data path's: zero-page writes bump `same_pages` and `pages_stored`),"
                + " and what one such operation costs here at this gap (the cost sweep, same run):\n\n");
        jvm.put("prediction", PredictionText.report(p, b, List.of(new Prediction.Pair(BASE, SRCU, "SRCU / rwsem, randrw, zero pages")), BASE, SRCU,
                ht, FIX.seedValue(), SEED_WORKERS, "The seed ran 4 workers on a 4-CPU machine, where four threads, not two, meet on"
                        + " the rwsem's line.", head));
        return b.toString();
    }

    private static String ns(SweepEstimates s, String guard, int t) {
        return Fmt.est(s.ns(GuardTable.seedKey(guard), t), 1);
    }
}
