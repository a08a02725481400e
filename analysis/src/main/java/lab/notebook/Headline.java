package lab.notebook;

import java.util.LinkedHashMap;
import java.util.Map;
import lab.analysis.Stats;
import lab.analysis.fidelity.NoiseFloor;

/**
 * A section's headline, the row of the notebook's first screen and {@code summary.json}'s
 * {@code headline}: the seed's published figure beside the model raw, the model calibrated to the
 * real device's cost per I/O, the prediction from counted shared-line operations, and the
 * kernel's own figure, each with its spread, and the run's noise floor.
 *
 * <p>Keys of the map ({@link #toMap}): {@code metric}, {@code seed}, {@code jvm} (the calibrated
 * figure where there is one, else the raw), {@code kernel}, {@code unit}, {@code note};
 * {@code jvm_raw}, {@code jvm_calibrated}, {@code kernel_spread} (median, min, max, rounds);
 * {@code predicted}; {@code implied_op_ns} (the cost per shared-line operation the seed's figure
 * implies) beside {@code measured_op_ns} (measured here); {@code base_ns} and {@code base_source}
 * (the calibration); {@code noise_floor} (a fraction: 0.031 is ±3.1%) of the headline's figure and, where
 * the raw figure has its own, {@code noise_floor_raw}; {@code kernel_note} (why the
 * kernel figure is not the fix's, when it is not; beside a kernel figure, where it comes from);
 * {@code noise_floor_kernel} where the kernel's figure has a floor of its own (the lab kernel's
 * A/A).
 */
public final class Headline {
    private final Fix fix;
    private String metric;
    private Stats.Spread raw;
    private Stats.Spread calibrated;
    private Double predicted;
    private Stats.Spread kernel;
    private String kernelNote;
    private Double kernelFloor;
    private NoiseFloor floor;
    private NoiseFloor rawFloor;
    private Double impliedOpNs;
    private Double measuredOpNs;
    private Double baseNs;
    private String baseSource;
    private String note;
    private final Map<String, Object> extra = new LinkedHashMap<>();

    private Headline(Fix fix) {
        this.fix = fix;
        this.metric = fix.seedMetric();
    }

    public static Headline of(Fix fix) {
        return new Headline(fix);
    }

    public Headline metric(String m) { this.metric = m; return this; }
    public Headline raw(Stats.Spread s) { this.raw = s; return this; }
    public Headline calibrated(Stats.Spread s) { this.calibrated = s; return this; }
    public Headline predicted(Double p) { this.predicted = p; return this; }
    /** The kernel's figure, and when it is not the fix's metric, why ({@code kernelNote}). */
    public Headline kernel(Stats.Spread s, String kernelNote) { this.kernel = s; this.kernelNote = kernelNote; return this; }
    /** The floor of the kernel's figure, from its own A/A (null: none). */
    public Headline kernelFloor(Double f) { this.kernelFloor = f; return this; }
    /** The floor of the headline's figure (the calibrated one where there is one). */
    public Headline floor(NoiseFloor f) { this.floor = f; return this; }
    /** The floor of the raw figure, where the run measured it apart from the calibrated one's. */
    public Headline rawFloor(NoiseFloor f) { this.rawFloor = f; return this; }
    public Headline implied(Double impliedOpNs, Double measuredOpNs) {
        this.impliedOpNs = impliedOpNs;
        this.measuredOpNs = measuredOpNs;
        return this;
    }
    public Headline base(Double ns, String source) { this.baseNs = ns; this.baseSource = source; return this; }
    /** The calibration's base, ns of uncontended CPU per I/O; null where the section has none. */
    public Double baseNs() { return baseNs; }
    /** The prediction from counted shared-line operations, where the section made one (null: none yet). */
    public Double predicted() { return predicted; }
    public Headline note(String n) { this.note = n; return this; }
    /** A figure of the fix's own beside the common ones (e.g. part-acct's {@code seed_first_two}), after them in the map. */
    public Headline extra(String key, Object value) { this.extra.put(key, value); return this; }

    public Map<String, Object> toMap() {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("metric", metric);
        h.put("seed", fix.seedValue());
        Stats.Spread jvm = calibrated != null ? calibrated : raw;
        h.put("jvm", jvm == null ? null : jvm.median());
        h.put("kernel", kernel == null ? null : kernel.median());
        h.put("unit", "ratio");
        if (note != null) {
            h.put("note", note);
        }
        h.put("jvm_raw", Parts.json(raw));
        h.put("jvm_calibrated", Parts.json(calibrated));
        h.put("predicted", predicted);
        h.put("kernel_spread", Parts.json(kernel));
        h.put("kernel_note", kernelNote);
        h.put("implied_op_ns", impliedOpNs);
        h.put("measured_op_ns", measuredOpNs);
        h.put("base_ns", baseNs);
        h.put("base_source", baseSource);
        h.put("noise_floor", floor == null ? null : floor.floor());
        if (rawFloor != null) {
            h.put("noise_floor_raw", rawFloor.floor());
        }
        if (kernelFloor != null) {
            h.put("noise_floor_kernel", kernelFloor);
        }
        h.putAll(extra);
        return h;
    }

    /** A ratio with its spread, or "within noise (floor ±X%)" when the floor swallows it. */
    public static String cell(Stats.Spread s, Double floor) {
        if (s == null) {
            return "—";
        }
        if (floor != null && Math.abs(s.median() - 1) <= floor) {
            return NoiseFloor.withinNoise(floor);
        }
        return Fmt.spread(s, 2) + "x";
    }
}
