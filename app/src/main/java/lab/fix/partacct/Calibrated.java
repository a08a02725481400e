package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.estimate.SweepEstimates;
import lab.analysis.fidelity.Prediction;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.fidelity.Calibration;
import lab.analysis.fidelity.LineCost;
import lab.analysis.fidelity.LineCounts;
import lab.analysis.fidelity.NoiseFloor;
import lab.fix.CostSweep;
import lab.notebook.Fmt;
import lab.notebook.Headline;
import lab.notebook.Parts;
import lab.notebook.PredictionText;
import lab.results.RunDir;

/**
 * The part-acct model calibrated to the device ({@link Calibration}: the kernel's CPU per I/O as
 * uncontended work in every model I/O), and its prediction from the counted shared-line
 * operations ({@link Prediction}): the calibrated variant table, the predicted against the
 * measured ratios, the cost per operation the seed's 1.15x implies beside the one measured here,
 * and the fits of the line.
 */
final class Calibrated {
    private Calibrated() {}

    /**
     * The calibrated side, made: the variant table of the calibrated sweep at its most threads
     * {@code t}, the fork CVs, and where the run has counts and costs, the prediction
     * ({@code byVisits}: priced per visit); {@code prediction} null where it has neither.
     */
    record Figures(Calibration cal, int t, VariantTable table, Parts.ForkCvs cv, boolean byVisits, PredictionText.Report prediction) {}

    /** The calibrated side's figures; null without a calibrated model. */
    static Figures estimate(Calibration cal, SweepEstimates calibrated, SweepEstimates raw, Path dir, RunDir run) throws IOException {
        if (cal == null || calibrated == null || calibrated.isEmpty()) {
            return null;
        }
        int t = calibrated.threadCounts().last();
        VariantTable table = VariantTable.of(calibrated);
        List<String> all = new java.util.ArrayList<>(VARIANTS);
        all.add(lab.engine.bench.Variants.control(BASE));
        Parts.ForkCvs cv = Parts.ForkCvs.estimate(calibrated, all, v -> VariantTable.key(v, "disk"), t);
        LineCounts counts = LineCounts.read(dir);
        LineCost costs = CostSweep.read(dir, PartAcctRaw.COSTS, run::gap);
        if (counts == null || costs.isEmpty()) {
            return new Figures(cal, t, table, cv, false, null);
        }
        Prediction p = new Prediction(calibrated, raw, v -> VariantTable.key(v, "disk"), v -> counts.get(v, Map.of("target", "disk")),
                costs, cal.baseNs(), Integer.parseInt(HZ), BASE);
        PredictionText.Report report = PredictionText.estimate(p, List.of(new Prediction.Pair(BASE, TWO, "patches 1-2 (`percpu-ref` / `atomic`)"),
                new Prediction.Pair(BASE, FOUR, "all four (`percpu-ref+percpu-inflight` / `atomic`)"),
                new Prediction.Pair(BASE, LAZY, "today (`lazy-ticks` / `atomic`)")), BASE, FOUR, t, SEED_FOUR, null,
                "The seed ran on a dual-socket machine with more CPUs, where a line crossing sockets costs several times what it"
                        + " costs between two cores of one VM.", cal.baseInterval());
        return new Figures(cal, t, table, cv, p.byVisits(BASE), report);
    }

    static String text(Figures f, String cores, Headline head, Map<String, Object> jvm) {
        StringBuilder b = new StringBuilder("### JVM model, calibrated to the device, and predicted from its shared lines\n\n");
        if (f == null) {
            return b.append("Not in this run: no calibrated model (`raw/part-acct/calibration.json`); the run predates the"
                    + " calibration, or neither its kernel side nor a committed run measured the kernel's CPU per I/O.\n\n").toString();
        }
        Calibration cal = f.cal();
        int t = f.t();
        b.append(Parts.calibration(cal));
        b.append(f.table().table(cores, "JVM model, calibrated (+" + cal.baseNs() + " ns per I/O): each variant's"
                + " throughput and its ratio to `atomic`"));
        NoiseFloor floor = f.table().floor("disk", t);
        Estimate headline = f.table().vsBase(FOUR, "disk", t);
        head.calibrated(headline).floor(floor).base(cal);
        Map<String, Object> cv = new java.util.LinkedHashMap<>();
        b.append(Parts.forkCv(f.cv(), cv));
        Map<String, Object> summary = f.table().summary();
        summary.put("fork_cv", cv.isEmpty() ? null : cv);
        jvm.put("calibrated", summary);
        if (f.prediction() == null) {
            return b.append("No shared-line counts or cost sweep in this run: no prediction.\n\n").toString();
        }
        b.append(f.byVisits()
                ? "Predicted from the shared lines (bios to the whole disk): one one-thread time T for every variant, `atomic`'s (the calibrated base plus the raw"
                + " model's one-thread ns), each variant's visits per I/O to the partition's hot line as counted in the model (a visit: the"
                + " operations of the start accounting, or of the end, back to back; the device's work and the submitter's part of the"
                + " base lie between them), and what one visit costs here at that rhythm (the cost sweep, same run: an RMW pair per"
                + " visit with the same work between pairs; on two cores a line is paid for once per visit, by its first operation);"
                + " the per-tick operations at the variant's measured I/O rate, each priced as an operation (a `store` to a shared word"
                + " as an RMW):\n\n"
                : "Predicted from the shared lines (bios to the whole disk): one one-thread time T for every variant, `atomic`'s (the calibrated base plus the raw model's one-thread ns), each variant's shared-line"
                + " operations per I/O as counted in the model (per tick ones at its measured I/O rate), and what one such"
                + " operation costs here at this gap (the cost sweep, same run; a `store` to a shared word is priced as an RMW):\n\n");
        Map<String, Object> pj = PredictionText.report(f.prediction(), b, head);
        jvm.put("prediction", pj);
        return b.toString();
    }
}
