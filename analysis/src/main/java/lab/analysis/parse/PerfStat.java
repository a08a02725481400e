package lab.analysis.parse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Pattern;
import lab.analysis.MalformedResultException;

/**
 * The counters of a {@code perf stat -x, -o FILE} file, with or without {@code -r N}.
 *
 * <p>Format (perf's "CSV FORMAT", {@code tools/perf/Documentation/perf-stat.txt}; commas inside
 * fields are not quoted): lines starting with {@code #} and blank lines are ignored; every other
 * line is one event:
 *
 * <pre>
 * value,unit,event,[variance,]run-time-ns,percent-running,metric-value,metric-unit
 * 62.90,msec,task-clock,0.16%,62896608,100.00,0.985,CPUs utilized
 * &lt;not supported&gt;,,cycles,0,100.00,,
 * </pre>
 *
 * The variance field ({@code 0.16%}) is written only with {@code -r N}: perf-stat.txt lists it
 * after percent-running, but perf writes it right after the event name, so it is recognised as
 * a 4th field ending in {@code %}. A value of {@code <not supported>} or {@code <not counted>}
 * makes the counter {@link Counter#absent() absent}, never 0. Interval ({@code -I}) and
 * per-CPU ({@code -A}, {@code --per-core}) output, which add leading fields, are not accepted.
 *
 * @param file where the counters came from
 * @param counters one per event line, in file order
 */
public record PerfStat(Path file, List<Counter> counters) {

    private static final Pattern DECIMAL = Pattern.compile("-?\\d+(\\.\\d+)?");
    /** Event modifiers as listed under "EVENT MODIFIERS" in perf-list(1), e.g. {@code :u}, {@code :ukp}. */
    private static final Pattern MODIFIERS = Pattern.compile(":[ukhIGHpPSDWebR]+$");
    private static final List<String> ABSENT_MARKERS = List.of("<not supported>", "<not counted>");

    /**
     * One event line.
     *
     * @param event the name as perf wrote it, modifiers included ({@code task-clock:u})
     * @param value empty exactly when {@code absent}
     * @param unit the value's unit, {@code ""} for a plain count ({@code msec} for task-clock)
     * @param variancePct the run-to-run variance in percent; null without {@code -r N}
     * @param runningPct percent of the run the counter was scheduled; null when the line stops before it
     * @param absent the value was {@code <not supported>} or {@code <not counted>}
     */
    public record Counter(String event, OptionalDouble value, String unit, Double variancePct,
                          Double runningPct, boolean absent) {
        public Counter {
            Objects.requireNonNull(event, "event");
            Objects.requireNonNull(unit, "unit");
            if (absent == value.isPresent()) {
                throw new IllegalArgumentException(event + ": absent must be true exactly when value is empty");
            }
        }

        /** The event name without a trailing modifier suffix: {@code task-clock:u} gives {@code task-clock}. */
        public String baseEvent() {
            return MODIFIERS.matcher(event).replaceFirst("");
        }
    }

    public PerfStat {
        Objects.requireNonNull(file, "file");
        counters = List.copyOf(counters);
    }

    /**
     * Reads a {@code perf stat -x,} file.
     *
     * @throws MalformedResultException naming the file, for an unreadable file, one with no event
     *         lines, or naming the line as well, for a line with fewer than 3 fields, an empty
     *         event name, a numeric unit, or a value, variance or percent-running that is not a number
     */
    public static PerfStat read(Path file) throws MalformedResultException {
        List<String> lines = lines(file);
        List<Counter> counters = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                counters.add(parseLine(file, i + 1, line));
            }
        }
        if (counters.isEmpty()) {
            throw new MalformedResultException(file, "holds no event lines (not perf stat -x, output?)");
        }
        return new PerfStat(file, counters);
    }

    /**
     * The counter for {@code event}: the one named exactly so, else the only one whose
     * {@link Counter#baseEvent() baseEvent} equals {@code event}'s (so {@code task-clock} finds
     * {@code task-clock:u}).
     *
     * @throws IllegalArgumentException when several counters differ only in modifiers
     *         ({@code cycles:u} and {@code cycles:k}); ask for one by its full name
     */
    public Optional<Counter> get(String event) {
        Optional<Counter> exact = counters.stream().filter(c -> c.event().equals(event)).findFirst();
        if (exact.isPresent()) {
            return exact;
        }
        String base = MODIFIERS.matcher(event).replaceFirst("");
        List<Counter> matches = counters.stream().filter(c -> c.baseEvent().equals(base)).toList();
        if (matches.size() > 1) {
            throw new IllegalArgumentException(file + ": '" + event + "' matches several events: "
                    + matches.stream().map(Counter::event).toList());
        }
        return matches.stream().findFirst();
    }

    /** The names (as written) of the events perf could not count: {@code <not supported>}/{@code <not counted>}. */
    public List<String> absent() {
        return counters.stream().filter(Counter::absent).map(Counter::event).toList();
    }

    /** Whether the lines carry a variance field, i.e. perf ran with {@code -r N}, N &gt; 1. */
    public boolean hasVariance() {
        return counters.stream().anyMatch(c -> c.variancePct() != null);
    }

    /**
     * A time counter's value in nanoseconds, converting by its unit: {@code msec} (how perf
     * reports task-clock and cpu-clock) times 1e6, {@code ns} times 1.
     *
     * @throws IllegalArgumentException for an absent counter or another unit
     */
    public static double taskClockNs(Counter c) {
        if (c.absent()) {
            throw new IllegalArgumentException(c.event() + " was not counted");
        }
        double scale = switch (c.unit()) {
            case "msec" -> 1e6;
            case "ns" -> 1;
            default -> throw new IllegalArgumentException(c.event() + ": unit '" + c.unit() + "' is not msec or ns");
        };
        return c.value().orElseThrow() * scale;
    }

    private static List<String> lines(Path file) throws MalformedResultException {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new MalformedResultException(file, "not readable as UTF-8 text (" + e + ")");
        }
    }

    private static Counter parseLine(Path file, int lineNo, String line) throws MalformedResultException {
        String[] f = line.split(",", -1);
        if (f.length < 3) {
            throw bad(file, lineNo, "expected at least value,unit,event; got " + f.length + " field(s): " + line);
        }
        if (f[2].isBlank()) {
            throw bad(file, lineNo, "empty event name: " + line);
        }
        if (DECIMAL.matcher(f[1]).matches()) {
            throw bad(file, lineNo, "unit '" + f[1] + "' is a number; interval (-I) or per-CPU (-A) output is not supported");
        }
        boolean withVariance = f.length > 3 && f[3].endsWith("%");
        Double variance = withVariance ? number(file, lineNo, "variance", f[3].substring(0, f[3].length() - 1)) : null;
        int runningAt = withVariance ? 5 : 4;
        Double running = runningAt < f.length && !f[runningAt].isEmpty()
                ? number(file, lineNo, "percent-running", f[runningAt]) : null;
        OptionalDouble value = value(file, lineNo, f[0]);
        return new Counter(f[2], value, f[1], variance, running, value.isEmpty());
    }

    private static OptionalDouble value(Path file, int lineNo, String text) throws MalformedResultException {
        if (ABSENT_MARKERS.contains(text)) {
            return OptionalDouble.empty();
        }
        if (!DECIMAL.matcher(text).matches()) {
            throw bad(file, lineNo, "value '" + text + "' is neither a number nor one of " + ABSENT_MARKERS);
        }
        return OptionalDouble.of(Double.parseDouble(text));
    }

    private static Double number(Path file, int lineNo, String what, String text) throws MalformedResultException {
        if (!DECIMAL.matcher(text).matches()) {
            throw bad(file, lineNo, what + " '" + text + "' is not a number");
        }
        return Double.parseDouble(text);
    }

    private static MalformedResultException bad(Path file, int lineNo, String problem) {
        return new MalformedResultException(file, "line " + lineNo + ": " + problem);
    }
}
