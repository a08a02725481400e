package lab.engine.count;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shared-line operations of one fix model's variant, per I/O, from a count run: the I/O of
 * the fix's benchmark, single-threaded, in steady state, with a {@link LineTally} as the sink
 * (made by {@code lab.engine.bench.PartAcctCounts} and {@code lab.engine.bench.ZramCounts}).
 *
 * <p>Work done once per clock tick rather than per I/O (the part-acct tick work) is in
 * {@link #perTick}: per tick of the clock with one submitter; a caller at a total rate of R I/Os
 * per second and HZ ticks per second adds {@code perTick * HZ / R} per I/O
 * ({@link #byKindAt}). With n submitters up to n of them may do a tick's work in the same tick
 * (the kernel's race, which the model keeps): an upper bound is n times {@code perTick}.
 *
 * <p>JSON-able as it is (Jackson writes a record's components): maps are ordered, sites and kinds
 * sorted; a site or kind absent from a map did no operation (zeros are left out).
 *
 * @param model   the fix: {@code part-acct} or {@code zram-init-lock}
 * @param variant the engine's id of the variant (an A/A control's id without its suffix)
 * @param point   the rest of the benchmark point, by {@code @Param} name: {@code target}, or
 *                {@code rw}, {@code pattern}, {@code compressor}, {@code sizeMiB}
 * @param ios     I/Os counted for {@link #perIo}
 * @param perIo   site -> {@link LineOp} id -> operations per I/O
 * @param ticks   clock ticks counted for {@link #perTick} (0 for a model without a clock)
 * @param perTick site -> {@link LineOp} id -> operations per tick, beyond the ticks' I/Os' own
 * @param visitsPerIo line ({@link LineTally#lineOf}) -> visits per I/O ({@link LineTally}): runs of
 *                operations on the line between two marks of uncontended work; null where the
 *                count run marked none (the model's work does not separate its operations)
 * @param contention what a contention run of the same point counted, per I/O on several threads
 *                ({@link ContentionCounts}: lock acquisitions, contended ones, their wait, line
 *                handoffs); null where none was run
 */
public record SharedLineCounts(String model, String variant, Map<String, String> point, long ios,
                               Map<String, Map<String, Double>> perIo, long ticks,
                               Map<String, Map<String, Double>> perTick, Map<String, Double> visitsPerIo,
                               ContentionCounts contention) {

    public SharedLineCounts {
        point = Collections.unmodifiableMap(new LinkedHashMap<>(point));
        perIo = sorted(perIo);
        perTick = sorted(perTick);
        visitsPerIo = visitsPerIo == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(visitsPerIo)));
    }

    /** Counts without a contention run. */
    public SharedLineCounts(String model, String variant, Map<String, String> point, long ios,
                            Map<String, Map<String, Double>> perIo, long ticks, Map<String, Map<String, Double>> perTick,
                            Map<String, Double> visitsPerIo) {
        this(model, variant, point, ios, perIo, ticks, perTick, visitsPerIo, null);
    }

    /** These counts with a contention run's beside them. */
    public SharedLineCounts withContention(ContentionCounts c) {
        return new SharedLineCounts(model, variant, point, ios, perIo, ticks, perTick, visitsPerIo, c);
    }

    /** Counts without visits. */
    public SharedLineCounts(String model, String variant, Map<String, String> point, long ios,
                            Map<String, Map<String, Double>> perIo, long ticks, Map<String, Map<String, Double>> perTick) {
        this(model, variant, point, ios, perIo, ticks, perTick, null, null);
    }

    /** {@code visits} (line -> visits) divided by {@code by}, zeros dropped. */
    public static Map<String, Double> perVisits(Map<String, Long> visits, long by) {
        if (by < 1) {
            throw new IllegalArgumentException("per " + by);
        }
        Map<String, Double> out = new TreeMap<>();
        visits.forEach((line, n) -> {
            if (n != 0) {
                out.put(line, (double) n / by);
            }
        });
        return out;
    }

    /** {@code counts} (site -> kind -> operations) divided by {@code by}, zeros dropped. */
    public static Map<String, Map<String, Double>> per(Map<String, Map<String, Long>> counts, long by) {
        if (by < 1) {
            throw new IllegalArgumentException("per " + by);
        }
        Map<String, Map<String, Double>> out = new TreeMap<>();
        counts.forEach((site, kinds) -> kinds.forEach((kind, n) -> {
            if (n != 0) {
                out.computeIfAbsent(site, s -> new TreeMap<>()).put(kind, (double) n / by);
            }
        }));
        return out;
    }

    /** Operations per I/O at {@code site} of kind {@code kind} (a {@link LineOp} id); 0 where none. */
    public double perIo(String site, String kind) {
        return perIo.getOrDefault(site, Map.of()).getOrDefault(kind, 0.0);
    }

    /** Operations per I/O by kind, summed over the sites. */
    public Map<String, Double> perIoByKind() {
        return byKind(perIo);
    }

    /** Operations per tick by kind, summed over the sites. */
    public Map<String, Double> perTickByKind() {
        return byKind(perTick);
    }

    /** Every shared-line operation per I/O, all sites and kinds. */
    public double totalPerIo() {
        return perIo.values().stream().flatMap(m -> m.values().stream()).mapToDouble(Double::doubleValue).sum();
    }

    /**
     * Operations per I/O by kind at a total rate of {@code iosPerSecond} and {@code hz} ticks a
     * second: {@link #perIo} plus {@code perTick * hz / iosPerSecond} (one submitter doing each
     * tick's work, see the class comment).
     */
    public Map<String, Double> byKindAt(double iosPerSecond, int hz) {
        if (!(iosPerSecond > 0) || hz < 1) {
            throw new IllegalArgumentException("rate " + iosPerSecond + " I/O/s, HZ " + hz);
        }
        Map<String, Double> out = new TreeMap<>(perIoByKind());
        perTickByKind().forEach((k, v) -> out.merge(k, v * hz / iosPerSecond, Double::sum));
        return Collections.unmodifiableMap(out);
    }

    private static Map<String, Double> byKind(Map<String, Map<String, Double>> bySite) {
        Map<String, Double> out = new TreeMap<>();
        bySite.values().forEach(kinds -> kinds.forEach((k, v) -> out.merge(k, v, Double::sum)));
        return Collections.unmodifiableMap(out);
    }

    private static Map<String, Map<String, Double>> sorted(Map<String, Map<String, Double>> m) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        new TreeMap<>(m).forEach((site, kinds) -> {
            if (!kinds.isEmpty()) {
                out.put(site, Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(kinds))));
            }
        });
        return Collections.unmodifiableMap(out);
    }
}
