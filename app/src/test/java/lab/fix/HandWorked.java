package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The notebook's estimator done again by hand, for the tests that pin a figure to the value worked
 * out from their fixture: a figure measured once per round is the geometric mean over rounds with
 * the interval {@code exp(m ∓ t·s/√n)} over its logs (m their mean, s their sd, n rounds); a signed
 * figure (an ns cost) the mean with {@code m ∓ t·s/√n} over the values. t is Student's 0.975
 * quantile as a printed table gives it. Nothing here calls the estimator under test: the point is
 * an independent computation.
 *
 * <p>The rules it follows are the estimator's since 2026-12-07: an interval rests on three units at
 * least (with two, t(1) = 12.706 says nothing a reader can use: the value and no interval); rounds
 * nested in boots take the boot as the unit (the mean of the boots' means, t on boots − 1, no
 * interval under three boots), never the rounds pooled across boots.
 */
public final class HandWorked {
    private HandWorked() {}

    /** Student's t, 0.975 quantile, for 1 to 5 degrees of freedom, as printed tables give it. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571};

    /** summary.json writes an estimate's value and ends to 6 decimals: within half the last decimal of the value worked by hand. */
    public static final double SIX = 5.01e-7;

    /** Fewest units (rounds, or boots) an interval rests on. */
    public static final int MIN_UNITS = 3;

    /**
     * A figure over rounds: its estimate, the 95% interval's ends (NaN under three units), the rounds, and the boots
     * they were nested in where the boot is the unit (1: the rounds are).
     */
    public record Interval(double value, double lo, double hi, int rounds, int boots) {
        /** A figure over rounds alone. */
        public Interval(double value, double lo, double hi, int rounds) {
            this(value, lo, hi, rounds, 1);
        }

        /** A figure of {@code rounds} rounds with no interval (fewer than three units): its value alone. */
        public static Interval none(double value, int rounds) {
            return new Interval(value, Double.NaN, Double.NaN, rounds, 1);
        }

        /** Whether it has an interval: three units (rounds, or boots where the boot is the unit) at least. */
        public boolean hasInterval() {
            return (boots >= 2 ? boots : rounds) >= MIN_UNITS;
        }

        /** The interval's farther end from 1: an A/A's reach, the noise floor (NaN without an interval). */
        public double reach() {
            return hasInterval() ? Math.max(hi - 1, 1 - lo) : Double.NaN;
        }

        /** Whether the interval leaves out 1 (a change at 95%; for an A/A, a failed control). */
        public boolean excludes1() {
            return hasInterval() && (lo > 1 || hi < 1);
        }
    }

    /**
     * A fix's model figures worked by hand, as its headline has them: the raw model's estimate and the calibrated
     * one's (null: none), the headline's A/A (the calibrated model's where there is one) and the raw model's beside it
     * (null: none apart from it).
     */
    public record Jvm(Interval raw, Interval calibrated, Interval aa, Interval aaRaw) {}

    /**
     * A fix's prediction worked by hand: its value and its estimate made within each round, the cost per shared-line
     * operation the seed's figure implies (ns) and its estimate within each round, and the cost measured here.
     */
    public record Predicted(double value, Interval overRounds, double implied, Interval impliedOverRounds, double measured) {}

    /** Student's t, 0.975 quantile, for {@code df} degrees of freedom; t(1) is in the table and never used for an interval. */
    public static double t(int df) {
        return T975[df - 1];
    }

    /** The geometric mean of {@code perRound} with its interval: exp of the logs' mean ∓ t·sd/√n; under three rounds the value alone. */
    public static Interval geo(double... perRound) {
        double[] logs = new double[perRound.length];
        for (int i = 0; i < logs.length; i++) {
            logs[i] = Math.log(perRound[i]);
        }
        Interval m = mean(logs);
        return new Interval(Math.exp(m.value()), Math.exp(m.lo()), Math.exp(m.hi()), m.rounds());
    }

    /** The mean of {@code perRound} with its interval: ∓ t·sd/√n; under three rounds the mean alone. */
    public static Interval mean(double... perRound) {
        int n = perRound.length;
        double m = avg(perRound);
        if (n < MIN_UNITS) {
            return Interval.none(m, n);
        }
        double h = t(n - 1) * sd(perRound) / Math.sqrt(n);
        return new Interval(m, m - h, m + h, n);
    }

    /**
     * Rounds nested in boots, the boot the unit: each boot's geometric mean over its rounds, then the geometric mean of
     * those with exp(∓ t(boots − 1)·s_b/√boots), s_b the sd of the boots' mean logs; under three boots the value alone.
     * One boot: {@link #geo} over its rounds.
     */
    public static Interval nestedGeo(double[]... boots) {
        if (boots.length == 1) {
            return geo(boots[0]);
        }
        double[] means = new double[boots.length];
        int rounds = 0;
        for (int b = 0; b < boots.length; b++) {
            double[] logs = new double[boots[b].length];
            for (int i = 0; i < logs.length; i++) {
                logs[i] = Math.log(boots[b][i]);
            }
            means[b] = avg(logs);
            rounds += logs.length;
        }
        double m = avg(means);
        if (boots.length < MIN_UNITS) {
            return new Interval(Math.exp(m), Double.NaN, Double.NaN, rounds, boots.length);
        }
        double h = t(boots.length - 1) * sd(means) / Math.sqrt(boots.length);
        return new Interval(Math.exp(m), Math.exp(m - h), Math.exp(m + h), rounds, boots.length);
    }

    private static double avg(double[] x) {
        double sum = 0;
        for (double v : x) {
            sum += v;
        }
        return sum / x.length;
    }

    private static double sd(double[] x) {
        double m = avg(x);
        double ss = 0;
        for (double v : x) {
            ss += (v - m) * (v - m);
        }
        return Math.sqrt(ss / (x.length - 1));
    }

    /** {@code assertEquals} within {@code rel} of {@code want}'s size. */
    public static void near(double want, double got, double rel, String what) {
        assertEquals(want, got, rel * Math.abs(want), what);
    }

    /**
     * summary.json's {@code {value, ci95: [lo, hi], rounds}} is {@code want}, to the 6 decimals it is written with: under
     * three units {@code ci95} null; {@code boots} where the boot is the unit, and {@code df} (the boots') with it.
     */
    public static void pin(Interval want, JsonNode got, String what) {
        assertEquals(want.rounds(), got.path("rounds").asInt(), what + ": rounds");
        assertEquals(want.value(), got.path("value").asDouble(), SIX, what + ": the value");
        if (want.hasInterval()) {
            assertTrue(got.path("ci95").isArray(), what + ": an interval over " + want.rounds() + " rounds: " + got);
            assertEquals(want.lo(), got.path("ci95").get(0).asDouble(), SIX, what + ": the interval's lower end");
            assertEquals(want.hi(), got.path("ci95").get(1).asDouble(), SIX, what + ": the interval's upper end");
        } else {
            assertTrue(got.path("ci95").isNull(), what + ": " + (want.boots() >= 2 ? want.boots() + " boots" : want.rounds() + " round(s)")
                    + ", no interval: " + got);
        }
        if (want.boots() >= 2) {
            assertEquals(want.boots(), got.path("boots").asInt(), what + ": boots");
            assertEquals(want.boots() - 1, got.path("df").asInt(want.rounds() - 1), what + ": the boots' degrees of freedom");
        } else {
            assertTrue(got.path("boots").isMissingNode() && got.path("df").isMissingNode(), what + ": rounds alone: " + got);
        }
    }
}
