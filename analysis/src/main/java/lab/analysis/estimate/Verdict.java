package lab.analysis.estimate;

import java.util.Locale;

/**
 * What a ratio's interval says, judged by the interval alone (never a median against a
 * separate floor): an effect when it leaves out 1; no effect larger than ±Y when it lies inside
 * {@code [1 - Y, 1 + Y]}; otherwise inconclusive, with the rounds its spread says would resolve
 * ±Y. Y is the run's target: ±5% for a quick run, ±2% for a full one ({@link #target}).
 */
public enum Verdict {
    EFFECT, NO_EFFECT, INCONCLUSIVE;

    /** The run's resolution target: ±5% quick, ±2% full. */
    public static double target(boolean quick) {
        return quick ? 0.05 : 0.02;
    }

    public static Verdict of(Estimate e, double y) {
        if (e.excludes(1)) {
            return EFFECT;
        }
        return e.within(y) ? NO_EFFECT : INCONCLUSIVE;
    }

    /** The verdict in words, for the notebook: "effect", "no effect larger than ±2%", "inconclusive: ...". */
    public static String words(Estimate e, double y) {
        return switch (of(e, y)) {
            case EFFECT -> "effect";
            case NO_EFFECT -> "no effect larger than " + pct(y);
            case INCONCLUSIVE -> inconclusive(e, y);
        };
    }

    /**
     * Why an interval does not settle the question, and what would: the rounds its spread says
     * would narrow it enough, if the estimate held, to leave out 1 or to fit inside ±y
     * ({@link Estimate#roundsToResolve}).
     */
    /** What a figure of one round lacks: an interval (two rounds or more give one). */
    public static final String ONE_ROUND = "one round, no interval yet";

    static String inconclusive(Estimate e, double y) {
        if (!e.hasInterval()) {
            return "inconclusive: " + ONE_ROUND;
        }
        int need = e.roundsToResolve(y);
        int more = Math.max(1, need - e.rounds());
        return String.format(Locale.ROOT, "inconclusive at %s: about %d more round%s would resolve it", pct(y), more, more == 1 ? "" : "s");
    }

    /** {@code ±5%}, {@code ±2%}, {@code ±2.5%}. */
    public static String pct(double y) {
        double p = 100 * y;
        return p == Math.rint(p) ? String.format(Locale.ROOT, "±%.0f%%", p) : String.format(Locale.ROOT, "±%.1f%%", p);
    }

    /**
     * A ratio and its verdict in a word, for a table whose rows a sentence above explains:
     * {@code 1.04 [1.01–1.08]x, effect}, {@code 1.00 [0.99–1.01]x, no effect > ±2%},
     * {@code 1.03 [0.51–2.07]x, inconclusive}, {@code 0.45x, one round}; or "—".
     */
    public static String brief(Estimate e, double y) {
        if (e == null) {
            return "—";
        }
        String v = e.format(2) + "x, ";
        if (!e.hasInterval()) {
            return v + "one round";
        }
        return v + switch (of(e, y)) {
            case EFFECT -> "effect";
            case NO_EFFECT -> "no effect > " + pct(y);
            case INCONCLUSIVE -> "inconclusive";
        };
    }

    /** A ratio and its verdict as a notebook cell: {@code 1.06 [0.99–1.12]x (inconclusive: ...)}, or "—". */
    public static String cell(Estimate e, double y) {
        if (e == null) {
            return "—";
        }
        String v = e.format(2) + "x";
        return switch (of(e, y)) {
            case EFFECT -> v;
            case NO_EFFECT -> v + " (no effect larger than " + pct(y) + ")";
            case INCONCLUSIVE -> v + " (" + inconclusive(e, y) + ")";
        };
    }
}
