package lab.analysis.estimate;

/**
 * The lab's sequential design for adding rounds to a figure: Stein's two-stage procedure (C. Stein,
 * "A two-sample test for a linear hypothesis whose power is independent of the variance", Ann. Math.
 * Statist. 16(3), 1945, 243–258). A pilot of {@code n0} rounds, its count fixed in advance, gives the
 * spread {@code s0} of the per-round log values; the design then asks for
 * {@code N = max(n0, ⌈(t(0.975, n0 - 1) s0 / h)²⌉)} rounds in all, and the interval after them is
 * the mean of all {@code N} rounds' logs {@code ± t(0.975, n0 - 1) s0 / √N}: the pilot's spread on
 * the pilot's degrees of freedom, never the spread of the rounds the rule chose to add. Its
 * half-width is then at most {@code h} by construction, and its coverage is exactly 95% for normal
 * per-round logs: given {@code s0}, the mean of {@code N} rounds is normal about the truth with
 * variance σ²/N and independent of {@code s0}, so {@code (m − μ) √N / s0} has Student's t on
 * {@code n0 − 1} degrees of freedom whatever {@code N} is.
 *
 * <p>The same holds when fewer rounds than {@code N} are run because a time budget or a round limit
 * ended first (the interval is then wider than {@code h}, and says so): the count stopped on
 * the clock or a cap, never on where the figure lay. It holds too for a rule that added rounds
 * until the running interval's width was small (the lab's rule before 2026-12-07, whose own
 * interval under-covered): such a rule looks at the rounds' spread only, which for normal rounds is
 * independent of their running mean, so the pilot's reading of those rounds is still exact.
 *
 * <p>What the half-width is for: {@link #halfWidth(double)} is {@code ln(1 + M) / 2}, the widest
 * interval that cannot both hold 1 and reach past {@code ±M}. A design run to the end therefore
 * always answers whether there is a change at all, and, where there is none, that none is larger
 * than {@code ±M}; an effect whose interval straddles {@code ±M} stays undecided against M, as it
 * would under any design (an effect of exactly M can fall on either side).
 */
public final class Stein {
    private Stein() {}

    /** Rounds of a pilot: the fewest that give an interval ({@link Estimate#MIN_UNITS}). */
    public static final int PILOT = Estimate.MIN_UNITS;

    /**
     * The design's log half-width for a margin {@code m} (0.05: ±5%): {@code ln(1 + m) / 2}, so that
     * an interval of that half-width which holds 1 ends inside {@code [1/(1+m), 1+m]}, within ±m.
     */
    public static double halfWidth(double m) {
        if (!(m > 0)) {
            throw new IllegalArgumentException("margin " + m);
        }
        return Math.log1p(m) / 2;
    }

    /**
     * The rounds in all Stein's rule asks for: {@code max(n0, have, ⌈(t(n0 - 1) s0 / h)²⌉)} for a
     * pilot of {@code n0} rounds with log spread {@code s0}, {@code have} rounds already run, and a
     * log half-width {@code h}; capped at 100,000.
     */
    public static int rounds(double s0, int n0, int have, double h) {
        if (n0 < 2 || !(h > 0) || !Double.isFinite(s0) || s0 < 0) {
            throw new IllegalArgumentException("pilot " + n0 + ", spread " + s0 + ", half-width " + h);
        }
        double need = Math.ceil(Math.pow(Estimator.t975(n0 - 1) * s0 / h, 2));
        return (int) Math.max(Math.max(n0, have), Math.min(need, 100_000));
    }
}
