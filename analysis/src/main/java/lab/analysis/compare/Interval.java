package lab.analysis.compare;

/** A closed interval {@code [low, high]}: a confidence interval of a mean or of a ratio. */
public record Interval(double low, double high) {
    public Interval {
        if (!(low <= high)) {
            throw new IllegalArgumentException("not an interval: [" + low + ", " + high + "]");
        }
    }

    /** Whether the two intervals share at least one point (touching counts as overlapping). */
    public boolean overlaps(Interval other) {
        return low <= other.high && other.low <= high;
    }

    public boolean contains(double x) {
        return low <= x && x <= high;
    }
}
