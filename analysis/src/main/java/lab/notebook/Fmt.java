package lab.notebook;

import java.util.Locale;

/** Number formats of the notebook: fixed, locale-free, so regeneration is byte-identical. */
public final class Fmt {
    private Fmt() {}

    /** {@code items} as a list in words: "a", "a and b", "a, b and c". */
    public static String and(java.util.List<String> items) {
        return items.size() < 2 ? String.join("", items)
                : String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.getLast();
    }

    public static String ratio(double r) {
        return Double.isNaN(r) ? "n/a" : String.format(Locale.ROOT, "%.2fx", r);
    }

    public static String f(double v, int digits) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    /** {@code median [min–max]} over rounds, or the median alone for a single round. */
    public static String spread(lab.analysis.Stats.Spread s, int digits) {
        if (s == null) {
            return "n/a";
        }
        return s.n() == 1 ? f(s.median(), digits) : s.format(digits);
    }

    /** An estimate, {@code value [lo–hi]} over rounds (the value alone with one round); "—" for none. */
    public static String est(lab.analysis.estimate.Estimate e, int digits) {
        return e == null ? "—" : e.format(digits);
    }

    /** Three significant digits below 1000, an integer above. */
    public static String sig(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
