package lab.notebook;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Verdict;
import lab.analysis.fidelity.Prediction;

/**
 * A fix's headline (summary.json's {@code headline} object, as {@link Headline} made it) in words:
 * the sentence that opens the notebook's first screen, and the lines {@code pair} prints when a fix
 * finishes. It reads the estimates the estimation stage made and computes nothing: each figure's
 * verdict is {@link Verdict}'s on the figure and its own A/A control, as summary.json has it.
 */
public final class HeadlineWords {
    private HeadlineWords() {}

    /** The most characters a first-screen sentence may have: one breath. */
    public static final int MAX_SENTENCE = 300;

    /**
     * One sentence of at most {@link #MAX_SENTENCE} characters: the model's figure and its verdict,
     * the seed's figure, and the kernel's figure and verdict or, in its first clause, why there is
     * none. The A/A, the prediction, the base and the sources are in the table and the fix's section.
     */
    public static String sentence(String id, Map<String, Object> h, String cores) {
        double target = target(h);
        Estimate model = model(h);
        StringBuilder b = new StringBuilder("**`").append(id).append("`**: ");
        if (model == null) {
            b.append("no model figure in this run");
        } else {
            b.append("model").append(calibrated(h) ? " (calibrated, " : " (raw, ").append(cores).append(") ")
                    .append(figure(model, control(h, calibrated(h) ? "aa" : "aa_raw"), target));
        }
        b.append("; seed ").append(h.get("seed") instanceof Number seed ? Fmt.ratio(seed.doubleValue()) : "—");
        String head = b.append("; kernel ").toString();
        String kernel = kernel(h, target, MAX_SENTENCE - head.length() - 1);
        return head + kernel + '.';
    }

    /** Three lines for the terminal: the seed, the model (raw, calibrated, predicted, A/A), the kernel. */
    public static List<String> lines(Map<String, Object> h) {
        double target = target(h);
        String seed = "seed:   " + (h.get("seed") instanceof Number s ? Fmt.ratio(s.doubleValue()) : "—") + " (" + h.get("metric") + ")";
        StringBuilder m = new StringBuilder("model:  ");
        Estimate raw = Estimate.fromJson(h.get("jvm_raw"));
        Estimate cal = Estimate.fromJson(h.get("jvm_calibrated"));
        m.append("raw ").append(Verdict.cell(raw, control(h, "aa_raw"), target));
        m.append("; calibrated ").append(cal == null ? "— (no calibration in this run)" : Verdict.cell(cal, control(h, "aa"), target));
        String pred = predicted(h, model(h));
        if (pred != null) {
            m.append("; predicted ").append(pred);
        }
        Estimate aa = Estimate.fromJson(h.get("aa"));
        if (aa != null) {
            m.append("; A/A ").append(aa.format(3)).append("x").append(aa.excludes(1) ? " EXCLUDES 1: drift or position bias" : "");
        }
        String k = Estimate.fromJson(h.get("kernel_estimate")) instanceof Estimate ke ? Verdict.cell(ke, control(h, "aa_kernel"), target)
                : kernel(h, target, Integer.MAX_VALUE).replace("**", "");
        return List.of(seed, m.toString(), "kernel: " + k);
    }

    /**
     * A figure and its verdict, in bold so it stands out in the sentence: "**1.04 [1.01–1.08]x,
     * effect ≥ +2%**", "**1.34 [1.32–1.36]x, A/A failed: not evidence**", "**0.45x, 1 round: no interval**".
     */
    static String figure(Estimate e, Estimate control, double target) {
        return "**" + Verdict.brief(e, control, target) + "**";
    }

    /**
     * A figure's own A/A control from the headline: {@code key}'s ({@code aa}, {@code aa_raw},
     * {@code aa_kernel}); the raw figure's is the headline's {@code aa} where the run has no
     * calibrated figure (the raw one is then the headline's).
     */
    static Estimate control(Map<String, Object> h, String key) {
        if (key.equals("aa_raw") && !h.containsKey("aa_raw") && Estimate.fromJson(h.get("jvm_calibrated")) == null) {
            return Estimate.fromJson(h.get("aa"));
        }
        return Estimate.fromJson(h.get(key));
    }

    /** The metric's name, without its parenthesised conditions or its list of variants. */
    static String metric(Map<String, Object> h) {
        return clause(h.get("metric") instanceof String s ? s : "the headline ratio", " (", ": ");
    }

    /** {@code text} up to the first of {@code stops} (the whole of it where none stands after its start). */
    static String clause(String text, String... stops) {
        int cut = text.length();
        for (String stop : stops) {
            int i = text.indexOf(stop);
            if (i > 0) {
                cut = Math.min(cut, i);
            }
        }
        return text.substring(0, cut);
    }

    private static double target(Map<String, Object> h) {
        return h.get("target") instanceof Number n ? n.doubleValue() : Verdict.target(false);
    }

    private static boolean calibrated(Map<String, Object> h) {
        return Estimate.fromJson(h.get("jvm_calibrated")) != null;
    }

    /** The model's figure the headline judges: calibrated where the run has it, else raw. */
    private static Estimate model(Map<String, Object> h) {
        Estimate cal = Estimate.fromJson(h.get("jvm_calibrated"));
        return cal != null ? cal : Estimate.fromJson(h.get("jvm_raw"));
    }

    /** The prediction and its agreement with {@code measured}; null where the run has none. */
    private static String predicted(Map<String, Object> h, Estimate measured) {
        if (!(h.get("predicted") instanceof Number p)) {
            return null;
        }
        Estimate over = Estimate.fromJson(h.get("predicted_over_rounds"));
        String v = Prediction.verdict(p.doubleValue(), over, measured);
        return Fmt.ratio(p.doubleValue()) + (v.equals("n/a") ? "" : " (" + (v.startsWith("agrees") ? "agrees" : v) + ")");
    }

    /**
     * The kernel's figure and its verdict (gated by its own A/A, {@code aa_kernel}), or why the run
     * has none, in at most {@code room} characters: the note's first clause, cut at a word if need be.
     */
    private static String kernel(Map<String, Object> h, double target, int room) {
        Estimate k = Estimate.fromJson(h.get("kernel_estimate"));
        String note = h.get("kernel_note") instanceof String s ? clause(s, ": ", "; ", " (") : null;
        String fig = k != null ? figure(k, control(h, "aa_kernel"), target)
                : h.get("kernel") instanceof Number n ? Fmt.ratio(n.doubleValue()) : "none";
        String out = fig + (note == null ? "" : " (" + note + ")");
        if (out.length() <= room) {
            return out;
        }
        int keep = room - fig.length() - 4;
        if (note == null || keep < 12) {
            return fig;
        }
        int cut = note.lastIndexOf(' ', keep);
        return fig + " (" + note.substring(0, cut > 0 ? cut : keep) + "…)";
    }
}
