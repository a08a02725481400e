package lab.analysis.estimate;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a ratio's interval says against the run's margin M (its resolution: ±5% quick, ±2% full,
 * {@link #target}), decided the same way for every figure the lab prints (model, kernel, bridge,
 * fleet), by the interval alone, in this order:
 *
 * <ol>
 *   <li>{@link #CONTROL_FAILED}: the figure's own A/A control (its base against a copy of itself)
 *       leaves out 1, so the run has drift or a position effect: the figure is not evidence;
 *   <li>{@link #NO_INTERVAL}: fewer than three rounds (or boots) under it: a value, no interval;
 *   <li>{@link #EFFECT}: the interval lies wholly beyond ±M (above 1 + M or below 1 − M): an effect
 *       of at least M;
 *   <li>{@link #SMALL_CHANGE}: inside ±M but leaving out 1: a change, smaller than M;
 *   <li>{@link #NO_EFFECT}: inside ±M and holding 1: no effect larger than M;
 *   <li>{@link #INCONCLUSIVE}: otherwise: the interval holds 1 and reaches past ±M, or leaves out 1
 *       and straddles ±M.
 * </ol>
 *
 * An interval that leaves out 1 is not, by that alone, an effect worth the name: [1.001–1.015] at
 * ±2% is a change smaller than 2%. The sequential design ({@link Stein}) aims at the width these
 * need: run to its end, an interval cannot both hold 1 and reach past ±M.
 */
public enum Verdict {
    EFFECT("effect"), SMALL_CHANGE("small-change"), NO_EFFECT("no-effect"), INCONCLUSIVE("inconclusive"),
    CONTROL_FAILED("control-failed"), NO_INTERVAL("no-interval");

    /** The verdict as summary.json's {@code verdict} has it. */
    public final String code;

    Verdict(String code) {
        this.code = code;
    }

    /** The run's margin M: ±5% quick, ±2% full. */
    public static double target(boolean quick) {
        return quick ? 0.05 : 0.02;
    }

    /** Whether the verdict settles the question at M (an effect of at least M, a smaller change, or none larger than M). */
    public boolean decided() {
        return this == EFFECT || this == SMALL_CHANGE || this == NO_EFFECT;
    }

    /** The verdict on {@code e} at margin {@code m}, with no A/A control of its own. */
    public static Verdict of(Estimate e, double m) {
        return of(e, null, m);
    }

    /** The verdict on {@code e} at margin {@code m}, gated by its own A/A {@code control} (null: none). */
    public static Verdict of(Estimate e, Estimate control, double m) {
        if (controlFailed(control)) {
            return CONTROL_FAILED;
        }
        if (!e.hasInterval()) {
            return NO_INTERVAL;
        }
        if (e.beyond(m)) {
            return EFFECT;
        }
        if (e.within(m)) {
            return e.excludes(1) ? SMALL_CHANGE : NO_EFFECT;
        }
        return INCONCLUSIVE;
    }

    /** Whether an A/A control's interval leaves out 1 (null: no control, nothing failed). */
    public static boolean controlFailed(Estimate control) {
        return control != null && control.excludes(1);
    }

    /** The verdict in words, with the sizes and, where the t table supports one, what more rounds would do. */
    public static String words(Estimate e, Estimate control, double m) {
        return switch (of(e, control, m)) {
            case CONTROL_FAILED -> failed(control);
            case NO_INTERVAL -> e.noInterval();
            case EFFECT -> "an effect of at least " + signed(e, m) + " (" + size(e) + ")";
            case SMALL_CHANGE -> "a change smaller than " + pct(m) + " (" + size(e) + ")";
            case NO_EFFECT -> "no effect larger than " + pct(m);
            case INCONCLUSIVE -> inconclusive(e, m) + more(e, m);
        };
    }

    /** {@link #words(Estimate, Estimate, double)} with no control. */
    public static String words(Estimate e, double m) {
        return words(e, null, m);
    }

    /** The verdict in a few words, for a table cell or the first screen: "effect ≥ +5%", "change < ±2%", "inconclusive at ±5%". */
    public static String shortWords(Estimate e, Estimate control, double m) {
        return switch (of(e, control, m)) {
            case CONTROL_FAILED -> "A/A failed: not evidence";
            case NO_INTERVAL -> e.noInterval();
            case EFFECT -> "effect ≥ " + signed(e, m);
            case SMALL_CHANGE -> "change < " + pct(m);
            case NO_EFFECT -> "no effect > " + pct(m);
            case INCONCLUSIVE -> "inconclusive at " + pct(m);
        };
    }

    /** What a failed control means for the figure it controls. */
    public static String failed(Estimate control) {
        return "the A/A control failed (" + control.format(3) + "): this figure is not evidence";
    }

    /** Why an interval does not settle the question at {@code m}. */
    static String inconclusive(Estimate e, double m) {
        if (e.excludes(1)) {
            return "inconclusive at " + pct(m) + ": a change (the interval leaves out 1) whose size straddles " + signed(e, m);
        }
        return "inconclusive at " + pct(m) + ": the interval holds 1 and reaches " + String.format(Locale.ROOT, "%+.1f%%",
                100 * ((Math.abs(e.hi() - 1) >= Math.abs(e.lo() - 1) ? e.hi() : e.lo()) - 1));
    }

    /**
     * What Stein's rule says more rounds would do, where an interval that holds 1 reaches past ±M:
     * with this figure's rounds as the pilot (their spread on their degrees of freedom, t's
     * quantile for those), {@code ⌈(t s / h)²⌉} rounds in all give a half-width of
     * {@code h = ln(1 + M) / 2} ({@link Stein}), which inside ±M decides it. Empty where the t
     * table gives no such number: under three rounds, boots as the unit, or a straddle (no count of
     * rounds is sure to settle an effect that lies near M).
     */
    static String more(Estimate e, double m) {
        if (e.excludes(1)) {
            return "";
        }
        int n = e.steinRounds(Stein.halfWidth(m));
        if (n < 0 || n <= e.rounds()) {
            return "";
        }
        int more = n - e.rounds();
        return String.format(Locale.ROOT, "; Stein's rule on its spread (%d df) asks %d more round%s for ±%.1f%%", e.df(), more,
                more == 1 ? "" : "s", 100 * Math.expm1(Stein.halfWidth(m)));
    }

    /** {@code +5%} or {@code −5%}, the side of 1 the estimate lies on. */
    private static String signed(Estimate e, double m) {
        return (e.value() >= 1 ? "+" : "-") + pct(m).substring(1);
    }

    /** {@code +4.1%, +1.0% to +7.3%}. */
    private static String size(Estimate e) {
        return String.format(Locale.ROOT, "%+.1f%%, %+.1f%% to %+.1f%%", 100 * (e.value() - 1), 100 * (e.lo() - 1), 100 * (e.hi() - 1));
    }

    /** {@code ±5%}, {@code ±2%}, {@code ±2.5%}. */
    public static String pct(double y) {
        double p = 100 * y;
        return p == Math.rint(p) ? String.format(Locale.ROOT, "±%.0f%%", p) : String.format(Locale.ROOT, "±%.1f%%", p);
    }

    /**
     * A ratio and its verdict in a few words, for a table whose rows a sentence explains:
     * {@code 1.04 [1.01–1.08]x, effect ≥ +2%}, {@code 1.00 [0.99–1.01]x, no effect > ±2%},
     * {@code 1.03 [0.51–2.07]x, inconclusive at ±5%}, {@code 0.45x, 1 round: no interval},
     * {@code 1.34 [1.32–1.36]x, A/A failed: not evidence}; or "—".
     */
    public static String brief(Estimate e, Estimate control, double m) {
        return e == null ? "—" : e.format(2) + "x, " + shortWords(e, control, m);
    }

    /** {@link #brief(Estimate, Estimate, double)} with no control. */
    public static String brief(Estimate e, double m) {
        return brief(e, null, m);
    }

    /** A ratio and its verdict as a notebook cell: {@code 1.06 [0.99–1.12]x (inconclusive at ±5%: ...)}, or "—". */
    public static String cell(Estimate e, Estimate control, double m) {
        return e == null ? "—" : e.format(2) + "x (" + words(e, control, m) + ")";
    }

    /** {@link #cell(Estimate, Estimate, double)} with no control. */
    public static String cell(Estimate e, double m) {
        return cell(e, null, m);
    }

    /** {@code {verdict: code, verdict_text: words}} for summary.json, beside the figure's estimate; nulls for no figure. */
    public static Map<String, Object> json(Estimate e, Estimate control, double m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("verdict", e == null ? null : of(e, control, m).code);
        out.put("verdict_text", e == null ? null : words(e, control, m));
        return out;
    }
}
