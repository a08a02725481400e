package lab.notebook;

import java.util.List;

/**
 * Where a section's entry of summary.json holds its headline's JVM figure at each thread count,
 * so that {@code ./lab compare} can set runs side by side at one thread count every run has: the
 * keys from the fix's entry down to the figure ({@code {value, ci95, rounds}}), dot-separated,
 * with {@value #T} where the thread count stands ({@code jvm.seed_point.calibrated.{T}.srcu_vs_rwsem}).
 * The figure's A/A, where the section writes one per thread count, is the {@code aa} beside it.
 *
 * @param calibrated the calibrated figure's keys (null: the section has none)
 * @param raw        the raw figure's keys (null: none)
 */
public record HeadlineByThreads(String calibrated, String raw) {
    /** What stands for the thread count in a key path. */
    public static final String T = "{T}";

    public HeadlineByThreads {
        for (String k : new String[] {calibrated, raw}) {
            if (k != null && !k.contains(T)) {
                throw new IllegalArgumentException("no " + T + " in " + k);
            }
        }
    }

    /** The keys of {@code path} before the thread count. */
    static List<String> before(String path) {
        String head = path.substring(0, path.indexOf(T));
        return head.isEmpty() ? List.of() : List.of(head.substring(0, head.length() - 1).split("\\."));
    }

    /** The keys of {@code path} after the thread count. */
    static List<String> after(String path) {
        String tail = path.substring(path.indexOf(T) + T.length());
        return tail.isEmpty() ? List.of() : List.of(tail.substring(1).split("\\."));
    }
}
