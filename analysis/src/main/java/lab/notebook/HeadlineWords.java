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
 * finishes. It reads the estimates and verdicts the estimation stage made and computes nothing:
 * an effect's size is the estimate's own value and interval, as a percentage.
 */
public final class HeadlineWords {
    private HeadlineWords() {}

    /**
     * One sentence: what was measured, what the model finds on this machine and what that means at
     * the run's target, what the counted operations predict, where the seed's figure lies, and the
     * kernel's figure or why there is none.
     */
    public static String sentence(String id, Map<String, Object> h, String cores) {
        double target = target(h);
        Estimate model = model(h);
        StringBuilder b = new StringBuilder("**`").append(id).append("`**, ").append(metric(h)).append(": ");
        if (model == null) {
            b.append("the model has no figure in this run");
        } else {
            b.append("on ").append(cores).append(" the model").append(calibrated(h) ? ", calibrated to the kernel's cost per I/O," : " (raw)")
                    .append(" gives ").append(figure(model, target));
            String pred = predicted(h, model);
            if (pred != null) {
                b.append("; the counted shared-line operations predict ").append(pred);
            }
        }
        if (h.get("seed") instanceof Number seed) {
            b.append("; the seed measured ").append(Fmt.ratio(seed.doubleValue()))
                    .append(model == null || !model.hasInterval() ? "" : seed.doubleValue() < model.lo() ? ", below the model's interval"
                            : seed.doubleValue() > model.hi() ? ", above the model's interval" : ", inside the model's interval");
        }
        return b.append("; ").append(kernel(h, target)).append('.').toString();
    }

    /** Three lines for the terminal: the seed, the model (raw, calibrated, predicted, A/A), the kernel. */
    public static List<String> lines(Map<String, Object> h) {
        double target = target(h);
        String seed = "seed:   " + (h.get("seed") instanceof Number s ? Fmt.ratio(s.doubleValue()) : "—") + " (" + h.get("metric") + ")";
        StringBuilder m = new StringBuilder("model:  ");
        Estimate raw = Estimate.fromJson(h.get("jvm_raw"));
        Estimate cal = Estimate.fromJson(h.get("jvm_calibrated"));
        m.append("raw ").append(Verdict.cell(raw, target));
        m.append("; calibrated ").append(cal == null ? "— (no calibration in this run)" : Verdict.cell(cal, target) + (cal.excludes(1) ? " (effect)" : ""));
        String pred = predicted(h, model(h));
        if (pred != null) {
            m.append("; predicted ").append(pred);
        }
        Estimate aa = Estimate.fromJson(h.get("aa"));
        if (aa != null) {
            m.append("; A/A ").append(aa.format(3)).append("x").append(aa.excludes(1) ? " EXCLUDES 1: drift or position bias" : "");
        }
        return List.of(seed, m.toString(), "kernel: " + kernel(h, target).replace("**", ""));
    }

    /**
     * A figure and what it means, in bold so the verdict stands out in the sentence: "**1.04
     * [1.01–1.08]x, an effect of +4.1% (...)**", or a figure of one round as just that.
     */
    static String figure(Estimate e, double target) {
        return e.hasInterval() ? "**" + e.format(2) + "x, " + meaning(e, target) + "**" : "**" + e.format(2) + "x** (" + Verdict.ONE_ROUND + ")";
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

    /** What an interval means at the target: an effect and its size, no effect larger than ±Y, or what would resolve it. */
    static String meaning(Estimate e, double target) {
        return switch (Verdict.of(e, target)) {
            case EFFECT -> e.hasInterval() ? String.format(Locale.ROOT, "an effect of %+.1f%% (%+.1f%% to %+.1f%%)",
                    100 * (e.value() - 1), 100 * (e.lo() - 1), 100 * (e.hi() - 1)) : "an effect";
            case NO_EFFECT -> "no effect larger than " + Verdict.pct(target);
            case INCONCLUSIVE -> Verdict.words(e, target);
        };
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

    /** The kernel's figure and its meaning, or why the run has none. */
    private static String kernel(Map<String, Object> h, double target) {
        Estimate k = Estimate.fromJson(h.get("kernel_estimate"));
        String note = h.get("kernel_note") instanceof String s ? s : null;
        if (k != null) {
            return "the kernel gives " + figure(k, target) + (note == null ? "" : " (" + note + ")");
        }
        if (h.get("kernel") instanceof Number n) {
            return "the kernel gives " + Fmt.ratio(n.doubleValue()) + (note == null ? "" : " (" + note + ")");
        }
        return "no kernel figure" + (note == null ? "" : ": " + note);
    }
}
