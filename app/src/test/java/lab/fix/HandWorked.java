package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The notebook's estimator done again by hand, for the tests that pin a figure to the value worked
 * out from their fixture: a figure measured once per round is the geometric mean over rounds with
 * the interval {@code exp(m ∓ t·s/√n)} over its logs (m their mean, s their sd, n rounds); a signed
 * figure (an ns cost) the mean with {@code m ∓ t·s/√n} over the values. t is Student's 0.975
 * quantile as a printed table gives it. Nothing here calls the estimator under test: the point is
 * an independent computation.
 */
public final class HandWorked {
    private HandWorked() {}

    /** Student's t, 0.975 quantile, for 1 to 4 degrees of freedom, as printed tables give it. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776};

    /** summary.json writes an estimate's value and ends to 6 decimals: within half the last decimal of the value worked by hand. */
    public static final double SIX = 5.01e-7;

    /** A figure over rounds: its estimate, the 95% interval's ends (NaN for one round) and the rounds. */
    public record Interval(double value, double lo, double hi, int rounds) {
        /** The interval's farther end from 1: an A/A's reach, the noise floor. */
        public double reach() {
            return Math.max(hi - 1, 1 - lo);
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

    /** Student's t, 0.975 quantile, for {@code df} degrees of freedom. */
    public static double t(int df) {
        return T975[df - 1];
    }

    /** The geometric mean of {@code perRound} with its interval: exp of the logs' mean ∓ t·sd/√n. */
    public static Interval geo(double... perRound) {
        double[] logs = new double[perRound.length];
        for (int i = 0; i < logs.length; i++) {
            logs[i] = Math.log(perRound[i]);
        }
        Interval m = mean(logs);
        return new Interval(Math.exp(m.value()), Math.exp(m.lo()), Math.exp(m.hi()), m.rounds());
    }

    /** The mean of {@code perRound} with its interval: ∓ t·sd/√n. */
    public static Interval mean(double... perRound) {
        int n = perRound.length;
        double sum = 0;
        for (double x : perRound) {
            sum += x;
        }
        double m = sum / n;
        if (n == 1) {
            return new Interval(m, Double.NaN, Double.NaN, 1);
        }
        double ss = 0;
        for (double x : perRound) {
            ss += (x - m) * (x - m);
        }
        double h = t(n - 1) * Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
        return new Interval(m, m - h, m + h, n);
    }

    /** {@code assertEquals} within {@code rel} of {@code want}'s size. */
    public static void near(double want, double got, double rel, String what) {
        assertEquals(want, got, rel * Math.abs(want), what);
    }

    /** summary.json's {@code {value, ci95: [lo, hi], rounds}} is {@code want}, to the 6 decimals it is written with. */
    public static void pin(Interval want, JsonNode got, String what) {
        assertEquals(want.rounds(), got.path("rounds").asInt(), what + ": rounds");
        assertEquals(want.value(), got.path("value").asDouble(), SIX, what + ": the value");
        if (want.rounds() > 1) {
            assertEquals(want.lo(), got.path("ci95").get(0).asDouble(), SIX, what + ": the interval's lower end");
            assertEquals(want.hi(), got.path("ci95").get(1).asDouble(), SIX, what + ": the interval's upper end");
        } else {
            assertEquals(true, got.path("ci95").isNull(), what + ": one round, no interval");
        }
    }
}
