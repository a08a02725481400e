package lab.analysis.chart;

/**
 * Maps a data value to a pixel: the domain {@code [d0, d1]} onto the range {@code [r0, r1]}.
 * {@link Linear} spaces values evenly; {@link Log2} spaces powers of two evenly (thread counts
 * 1, 2, 4, 8, 16). A range may run backwards, as a y axis does (r0 at the bottom).
 */
public sealed interface Scale {
    /** The pixel of {@code v}. */
    double px(double v);

    static Scale linear(double d0, double d1, double r0, double r1) {
        return new Linear(d0, d1, r0, r1);
    }

    static Scale log2(double d0, double d1, double r0, double r1) {
        return new Log2(d0, d1, r0, r1);
    }

    record Linear(double d0, double d1, double r0, double r1) implements Scale {
        public Linear {
            if (!(d1 > d0)) {
                throw new IllegalArgumentException("empty domain [" + d0 + ", " + d1 + "]");
            }
        }

        @Override
        public double px(double v) {
            return r0 + (v - d0) / (d1 - d0) * (r1 - r0);
        }
    }

    record Log2(double d0, double d1, double r0, double r1) implements Scale {
        public Log2 {
            if (!(d0 > 0 && d1 > d0)) {
                throw new IllegalArgumentException("a log2 domain must be positive and non-empty: [" + d0 + ", " + d1 + "]");
            }
        }

        @Override
        public double px(double v) {
            if (!(v > 0)) {
                throw new IllegalArgumentException("log2 scale of a value <= 0: " + v);
            }
            return r0 + (log2(v) - log2(d0)) / (log2(d1) - log2(d0)) * (r1 - r0);
        }

        /** StrictMath: the same bits on every JVM and CPU, so the same SVG bytes. */
        private static double log2(double v) {
            return StrictMath.log(v) / StrictMath.log(2);
        }
    }
}
