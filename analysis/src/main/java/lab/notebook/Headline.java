package lab.notebook;

import java.util.LinkedHashMap;
import java.util.Map;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Verdict;
import lab.analysis.fidelity.NoiseFloor;
import lab.results.RunDir;

/**
 * A section's headline, the row of the notebook's first screen and {@code summary.json}'s
 * {@code headline}: the seed's published figure beside the model raw, the model calibrated to the
 * real device's cost per I/O, the prediction from counted shared-line operations, and the
 * kernel's own figure, each an estimate with its 95% interval, and the run's A/A control.
 *
 * <p>Keys of the map ({@link #toMap}): {@code metric}, {@code seed}, {@code jvm} (the calibrated
 * figure's value where there is one, else the raw's), {@code kernel}, {@code unit}, {@code note};
 * {@code target} (the run's margin M: 0.05 quick, 0.02 full), {@code verdict} and {@code verdict_text}
 * (the headline figure's interval judged against it, gated by its A/A: {@link Verdict}'s code and
 * words; {@code kernel_verdict}, {@code kernel_verdict_text} likewise for the kernel's figure and
 * its own A/A); {@code jvm_raw}, {@code jvm_calibrated},
 * {@code kernel_estimate}: {@code {value, ci95: [lo, hi], rounds}}; {@code predicted};
 * {@code implied_op_ns} (the cost per shared-line operation the seed's figure implies) beside
 * {@code measured_op_ns} (measured here), each also made within each round and estimated over rounds
 * ({@code implied_op_ns_over_rounds}, {@code measured_op_ns_over_rounds}: the mean and its interval); {@code base_ns} and {@code base_source} (the
 * calibration) with {@code base_ns_ci95} (its 95% interval over the kernel's rounds) and
 * {@code predicted_range} (the prediction at the two ends of that interval, all else held: the
 * calibration's share of the prediction's uncertainty) and {@code predicted_over_rounds} (the prediction made within each
 * round from that round's T and c, estimated over rounds: their share; the counts are exact); {@code aa} (the A/A of the headline's figure, with its {@code ci95}, and
 * {@code self_test}: whether its interval holds 1) and, where the raw figure or the kernel's has
 * its own, {@code aa_raw}, {@code aa_kernel}; {@code noise_floor} (the A/A interval's reach from
 * 1, for orientation only: verdicts come from each figure's own interval); {@code kernel_note}.
 */
public final class Headline {
    private final Fix fix;
    private final double target;
    private String metric;
    private Estimate raw;
    private Estimate calibrated;
    private Double predicted;
    private Estimate kernel;
    private String kernelNote;
    private NoiseFloor kernelFloor;
    private NoiseFloor floor;
    private NoiseFloor rawFloor;
    private Double impliedOpNs;
    private Estimate impliedOverRounds;
    private Estimate measuredOverRounds;
    private Double measuredOpNs;
    private Double baseNs;
    private String baseSource;
    private double[] baseInterval;
    private double[] predictedRange;
    private Estimate predictedOverRounds;
    private String note;
    private final Map<String, Object> extra = new LinkedHashMap<>();

    private Headline(Fix fix, double target) {
        this.fix = fix;
        this.target = target;
        this.metric = fix.seedMetric();
    }

    /** The headline of {@code fix} in {@code run}, judged at the run's target ({@link #target(RunDir)}). */
    public static Headline of(Fix fix, RunDir run) {
        return new Headline(fix, target(run));
    }

    /** The run's resolution target: ±5% for a quick run, ±2% for a full one (a run that does not say is full). */
    public static double target(RunDir run) {
        return Verdict.target(run.manifest().path("quick").asBoolean(false));
    }

    public Headline metric(String m) { this.metric = m; return this; }
    public Headline raw(Estimate s) { this.raw = s; return this; }
    public Headline calibrated(Estimate s) { this.calibrated = s; return this; }
    public Headline predicted(Double p) { this.predicted = p; return this; }
    /** The kernel's figure, and when it is not the fix's metric, why ({@code kernelNote}). */
    public Headline kernel(Estimate s, String kernelNote) { this.kernel = s; this.kernelNote = kernelNote; return this; }
    /** The A/A of the kernel's figure, where it has its own (null: none). */
    public Headline kernelFloor(NoiseFloor f) { this.kernelFloor = f; return this; }
    /** The A/A of the headline's figure (the calibrated one where there is one). */
    public Headline floor(NoiseFloor f) { this.floor = f; return this; }
    /** The A/A of the raw figure, where the run measured it apart from the calibrated one's. */
    public Headline rawFloor(NoiseFloor f) { this.rawFloor = f; return this; }
    public Headline implied(Double impliedOpNs, Double measuredOpNs) {
        this.impliedOpNs = impliedOpNs;
        this.measuredOpNs = measuredOpNs;
        return this;
    }
    /** {@link #implied}'s two costs made within each round (T and c that round's), estimated over rounds; null for none. */
    public Headline impliedOverRounds(Estimate implied, Estimate measured) {
        this.impliedOverRounds = implied;
        this.measuredOverRounds = measured;
        return this;
    }
    public Headline base(Double ns, String source) { this.baseNs = ns; this.baseSource = source; return this; }
    /** The calibration's base, its source and its 95% interval over the kernel's rounds. */
    public Headline base(lab.analysis.fidelity.Calibration cal) {
        this.baseInterval = cal.baseInterval();
        return base((double) cal.baseNs(), cal.kernelSource());
    }
    /** The calibration's base interval, ns; null where the run has none. */
    public double[] baseInterval() { return baseInterval; }
    /** The prediction at the two ends of the base's interval, the rest held (null: none). */
    public Headline predictedRange(double[] range) { this.predictedRange = range; return this; }

    /** The prediction made within each round (T's and c's noise), estimated over rounds; null for none. */
    public Headline predictedOverRounds(Estimate e) { this.predictedOverRounds = e; return this; }
    /** The calibration's base, ns of uncontended CPU per I/O; null where the section has none. */
    public Double baseNs() { return baseNs; }
    /** The prediction from counted shared-line operations, where the section made one (null: none yet). */
    public Double predicted() { return predicted; }
    /** The run's resolution target. */
    public double target() { return target; }
    public Headline note(String n) { this.note = n; return this; }
    /** A figure of the fix's own beside the common ones (e.g. part-acct's {@code seed_first_two}), after them in the map. */
    public Headline extra(String key, Object value) { this.extra.put(key, value); return this; }

    public Map<String, Object> toMap() {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("metric", metric);
        h.put("seed", fix.seedValue());
        Estimate jvm = calibrated != null ? calibrated : raw;
        h.put("jvm", jvm == null ? null : jvm.value());
        h.put("kernel", kernel == null ? null : kernel.value());
        h.put("unit", "ratio");
        if (note != null) {
            h.put("note", note);
        }
        h.put("target", target);
        h.putAll(Verdict.json(jvm, floor == null ? null : floor.aa(), target));
        h.put("jvm_raw", raw == null ? null : raw.json());
        h.put("jvm_calibrated", calibrated == null ? null : calibrated.json());
        h.put("predicted", predicted);
        h.put("predicted_range", predictedRange == null ? null : java.util.List.of(predictedRange[0], predictedRange[1]));
        h.put("predicted_over_rounds", predictedOverRounds == null ? null : predictedOverRounds.json());
        h.put("kernel_estimate", kernel == null ? null : kernel.json());
        if (kernel != null) {
            Map<String, Object> kv = Verdict.json(kernel, kernelFloor == null ? null : kernelFloor.aa(), target);
            h.put("kernel_verdict", kv.get("verdict"));
            h.put("kernel_verdict_text", kv.get("verdict_text"));
        }
        h.put("kernel_note", kernelNote);
        h.put("implied_op_ns", impliedOpNs);
        h.put("measured_op_ns", measuredOpNs);
        h.put("implied_op_ns_over_rounds", impliedOverRounds == null ? null : impliedOverRounds.json());
        h.put("measured_op_ns_over_rounds", measuredOverRounds == null ? null : measuredOverRounds.json());
        h.put("base_ns", baseNs);
        h.put("base_ns_ci95", baseInterval == null ? null : java.util.List.of(Math.round(baseInterval[0]), Math.round(baseInterval[1])));
        h.put("base_source", baseSource);
        h.put("aa", aa(floor));
        if (rawFloor != null && rawFloor != floor) {
            h.put("aa_raw", aa(rawFloor));
        }
        if (kernelFloor != null) {
            h.put("aa_kernel", aa(kernelFloor));
        }
        h.put("noise_floor", floor == null || !Double.isFinite(floor.floor()) ? null : floor.floor());
        h.putAll(extra);
        return h;
    }

    private static Map<String, Object> aa(NoiseFloor f) {
        if (f == null) {
            return null;
        }
        Map<String, Object> m = f.aa().json();
        m.put("self_test", !f.aa().hasInterval() ? f.aa().noInterval() + ": untested" : f.failed() ? "failed: excludes 1" : "holds 1");
        return m;
    }

}
