package lab.jobspec.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleToLongFunction;

/**
 * fio's default completion-latency percentile list ({@code percentile_list} in fio options.c,
 * {@code def_percentile_list}) and the way fio's JSON writer keys it: {@code "%f"} of the
 * percentile, so {@code 99.9} becomes {@code "99.900000"}.
 */
public final class FioPercentiles {

    /** fio 3.33's default list, in fio's order. */
    private static final double[] DEFAULT_LIST = {
        1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0,
        99.0, 99.5, 99.9, 99.95, 99.99,
    };

    private FioPercentiles() {
    }

    /** The JSON key fio writes for percentile {@code p}. */
    public static String key(double p) {
        return String.format(Locale.ROOT, "%f", p);
    }

    /** How many percentiles fio reports by default. */
    public static int count() {
        return DEFAULT_LIST.length;
    }

    /** The {@code i}-th percentile of the default list (0-based). */
    public static double at(int i) {
        return DEFAULT_LIST[i];
    }

    /**
     * The percentile map of a latency distribution, in fio's key order.
     *
     * @param valueAt the distribution's value (ns) at a percentile in [0, 100]
     */
    public static Map<String, Long> of(DoubleToLongFunction valueAt) {
        Map<String, Long> map = new LinkedHashMap<>();
        for (double p : DEFAULT_LIST) {
            map.put(key(p), valueAt.applyAsLong(p));
        }
        return Collections.unmodifiableMap(map);
    }
}
