package lab.analysis.parse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.analysis.MalformedResultException;
import lab.analysis.parse.ReportText.Cursor;

/**
 * The table of {@code perf lock contention -i perf.data [-k KEY] [-F FIELDS] [-t] [-E N]}, as
 * perf 6.1 prints it: it has no structured output (no {@code -x}, no JSON), so this reads the
 * text that {@code print_contention_result()} in {@code tools/perf/builtin-lock.c} writes (with
 * {@code pr_info}, i.e. to stderr):
 *
 * <pre>
 *  contended   total wait     max wait     avg wait         type   caller
 *
 *         12    345.67 us     45.10 us     28.81 us     spinlock   dm_bufio_lock+0x1a
 *          3       812 ns       401 ns       270 ns        mutex   thin_map
 * </pre>
 *
 * The header is one {@code "%*s "} per field in {@code -F} order (the sort key {@code -k} is
 * appended when {@code -F} lacks it), widths from {@code contention_keys[]}: {@code contended}
 * 10, the times 12; then {@code "  %10s   %s"} of {@code type caller}, or of {@code pid comm}
 * with {@code -t}; then a blank line. A count is {@code "%*llu"}; a time is
 * {@code lock_stat_key_print_time()}'s {@code "%*.2f %s"} in the largest unit it reaches
 * ({@code h}, {@code m}, {@code s}, {@code ms}, {@code us}) or {@code "%*llu ns"}; each field is
 * followed by a space. The type is one of {@code get_type_str()}'s names; the caller is the
 * first non-lock function of the callchain, {@code sym+0xoff} (or {@code sym} at offset 0), or
 * {@code Unknown}. Wide values push columns right, so lines are read as tokens, not by column;
 * the caller (or comm) is the rest of the line, inner spaces kept. With {@code -v} each row is
 * followed by its callstack, {@code "\t\t\t%#lx  %s"} lines, kept in {@link Row#callstack()}.
 * {@code print_bad_events()}'s debug trailer ({@code === output for debug===}, printed when a
 * lock sequence was broken, or with {@code -v}) is read into {@link #debug()}.
 *
 * <p>Lines before the header (perf's warnings, such as lost chunks) are kept in
 * {@link #preamble()}: they may say the data is incomplete. Not accepted: {@code -q} output (no
 * header), and a header without {@code contended} or {@code total wait}, which
 * {@link #sumAt} needs. {@code -E N} cuts the table after N rows and says nothing: with N rows
 * printed, more may exist.
 *
 * @param file where the table came from
 * @param columns the numeric columns, in printed order
 * @param perThread whether the table is per thread ({@code -t}: pid, comm) or per caller
 * @param rows per caller, in printed order (empty with {@code -t})
 * @param threads per thread, in printed order (empty without {@code -t})
 * @param debug the debug trailer, when perf printed one
 * @param preamble the non-blank lines before the header, as written
 */
public record PerfLockContention(Path file, List<Column> columns, boolean perThread, List<Row> rows,
                                 List<ThreadRow> threads, Optional<BadEvents> debug, List<String> preamble) {

    /** {@code get_type_str()}'s names, "unknown" included. */
    public static final Set<String> TYPES = Set.of("semaphore", "spinlock", "rwlock:R", "rwlock:W",
            "rwsem:R", "rwsem:W", "rtmutex", "rwlock-rt:R", "rwlock-rt:W", "pcpu-sem:R", "pcpu-sem:W",
            "mutex", "unknown");
    /** {@code print_bad_events()}'s histogram names, in its order. */
    public static final List<String> BAD_EVENT_NAMES = List.of("acquire", "acquired", "contended", "release");

    private static final Pattern HEADER_TAIL = Pattern.compile("\\s(type\\s+caller|pid\\s+comm)\\s*$");
    private static final Pattern COUNT = Pattern.compile("\\d+");
    private static final Pattern TWO_DECIMALS = Pattern.compile("\\d+\\.\\d{2}");
    private static final Pattern PID = Pattern.compile("-?\\d+");
    private static final String DEBUG_MARK = "=== output for debug===";
    private static final Pattern BAD_TOTAL = Pattern.compile("bad: (-?\\d+), total: (-?\\d+)");
    private static final Pattern BAD_RATE = Pattern.compile("bad rate: (-?nan|-?inf|\\d+\\.\\d{2}) %");
    private static final String HISTOGRAM = "histogram of events caused bad sequence";
    private static final Pattern HISTOGRAM_LINE = Pattern.compile("\\s*(\\S+): (\\d+)");

    /** A numeric column: its {@code -F} name and the header perf prints for it. */
    public enum Column {
        CONTENDED("contended", "contended"),
        WAIT_TOTAL("wait_total", "total wait"),
        WAIT_MAX("wait_max", "max wait"),
        WAIT_MIN("wait_min", "min wait"),
        AVG_WAIT("avg_wait", "avg wait");

        private final String field;
        private final String header;

        Column(String field, String header) {
            this.field = field;
            this.header = header;
        }

        /** The name {@code -F} and {@code -k} take. */
        public String field() { return field; }

        /** The header perf prints. */
        public String header() { return header; }
    }

    /**
     * A printed time: the number and unit as written. Exact only in {@code ns}; in another unit
     * the value was rounded to 2 decimals of the unit, after a single-precision division
     * ({@code nsec / table[i].base} with a {@code float} base).
     *
     * @param value the printed number
     * @param unit {@code h}, {@code m}, {@code s}, {@code ms}, {@code us} or {@code ns}
     */
    public record Time(double value, String unit) {
        public Time {
            nsPerUnit(unit);
        }

        public double ns() {
            return value * nsPerUnit(unit);
        }

        /** How far the printed value may be from the recorded nanoseconds: 0 in ns, else half the last digit and the float division's error. */
        public double errorNs() {
            return unit.equals("ns") ? 0 : 0.005 * nsPerUnit(unit) + 3 * 0x1p-24 * ns();
        }

        private static double nsPerUnit(String unit) {
            return switch (unit) {
                case "h" -> 3600e9;
                case "m" -> 60e9;
                case "s" -> 1e9;
                case "ms" -> 1e6;
                case "us" -> 1e3;
                case "ns" -> 1;
                default -> throw new IllegalArgumentException("time unit '" + unit + "' is none of h m s ms us ns");
            };
        }
    }

    /**
     * One row's numbers. {@code contended} and {@code waitTotal} are always there (the parser
     * requires their columns); the other times are null when {@code -F} left them out.
     */
    public record Waits(long contended, Time waitTotal, Time waitMax, Time waitMin, Time avgWait) {
        public Waits {
            Objects.requireNonNull(waitTotal, "waitTotal");
        }
    }

    /**
     * A per-caller row.
     *
     * @param type one of {@link #TYPES}
     * @param caller {@code sym+0xoff}, {@code sym}, or {@code Unknown}, as printed
     * @param callstack with {@code -v}, the frames printed under the row ({@code 0xaddr  sym+0xoff}); else empty
     */
    public record Row(Waits waits, String type, String caller, List<String> callstack) {
        public Row {
            Objects.requireNonNull(waits, "waits");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(caller, "caller");
            callstack = List.copyOf(callstack);
        }

        public long contended() { return waits.contended(); }

        public double waitTotalNs() { return waits.waitTotal().ns(); }

        /** The caller's symbol: the caller up to its {@code +offset}. */
        public String symbol() { return PerfLockContention.symbolOf(caller); }
    }

    /** A per-thread row ({@code -t}). */
    public record ThreadRow(Waits waits, int pid, String comm) {
        public ThreadRow {
            Objects.requireNonNull(waits, "waits");
            Objects.requireNonNull(comm, "comm");
        }
    }

    /**
     * {@code print_bad_events()}'s trailer.
     *
     * @param histogram by {@link #BAD_EVENT_NAMES}, in that order
     */
    public record BadEvents(int bad, int total, Map<String, Integer> histogram) {
        public BadEvents {
            histogram = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(histogram));
        }
    }

    /**
     * What a set of callers added up to.
     *
     * @param symbols the symbols asked for
     * @param rows how many rows matched
     * @param contended their contentions
     * @param waitTotalNs their total wait
     * @param waitTotalErrorNs how far {@code waitTotalNs} may be off by perf's rounding
     */
    public record CallerSum(Set<String> symbols, int rows, long contended, double waitTotalNs, double waitTotalErrorNs) {
        public CallerSum {
            symbols = Set.copyOf(symbols);
        }

        public double contendedPerIo(long ios) {
            return contended / (double) positive(ios);
        }

        public double waitNsPerIo(long ios) {
            return waitTotalNs / positive(ios);
        }

        private static long positive(long ios) {
            if (ios <= 0) {
                throw new IllegalArgumentException("I/O count must be positive: " + ios);
            }
            return ios;
        }
    }

    public PerfLockContention {
        Objects.requireNonNull(file, "file");
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
        threads = List.copyOf(threads);
        Objects.requireNonNull(debug, "debug");
        preamble = List.copyOf(preamble);
        if (perThread ? !rows.isEmpty() : !threads.isEmpty()) {
            throw new IllegalArgumentException("per-thread tables hold only threads, per-caller ones only rows");
        }
    }

    /** A caller's symbol: {@code dm_bufio_lock+0x1a} gives {@code dm_bufio_lock}; a caller without an offset is its own. */
    public static String symbolOf(String caller) {
        int plus = caller.indexOf('+');
        return plus < 0 ? caller : caller.substring(0, plus);
    }

    /**
     * The rows whose caller's {@link #symbolOf symbol} is one of {@code symbols}, added up: the
     * contentions and wait at those call sites (a caller may fill several rows, one per distinct
     * callchain). Only the printed rows count; see {@code -E} above.
     *
     * @throws IllegalStateException on a per-thread table, which names no callers
     */
    public CallerSum sumAt(Set<String> symbols) {
        if (perThread) {
            throw new IllegalStateException(file + ": a per-thread (-t) table names no callers");
        }
        int n = 0;
        long contended = 0;
        double wait = 0;
        double error = 0;
        for (Row r : rows) {
            if (symbols.contains(r.symbol())) {
                n++;
                contended += r.contended();
                wait += r.waitTotalNs();
                error += r.waits().waitTotal().errorNs();
            }
        }
        return new CallerSum(symbols, n, contended, wait, error);
    }

    /**
     * Reads a {@code perf lock contention} table.
     *
     * @throws MalformedResultException naming the file, for an unreadable file or one without a
     *         header; naming the line as well, for a header without {@code contended} or
     *         {@code total wait} or with an unknown column, and for a row, callstack line or
     *         debug-trailer line that does not read as perf prints it
     */
    public static PerfLockContention read(Path file) throws MalformedResultException {
        List<String> lines = ReportText.lines(file);
        int h = 0;
        List<String> preamble = new ArrayList<>();
        while (h < lines.size() && !HEADER_TAIL.matcher(lines.get(h)).find()) {
            if (!lines.get(h).isBlank()) {
                preamble.add(lines.get(h));
            }
            h++;
        }
        if (h == lines.size()) {
            throw new MalformedResultException(file, "no header line ending in 'type   caller' or 'pid   comm'"
                    + " (not perf lock contention output, or run with -q?)");
        }
        boolean perThread = !lines.get(h).strip().endsWith("caller");
        List<Column> columns = header(file, h + 1, lines.get(h));
        List<Row> rows = new ArrayList<>();
        List<ThreadRow> threads = new ArrayList<>();
        Optional<BadEvents> debug = Optional.empty();
        for (int i = h + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            if (line.strip().equals(DEBUG_MARK)) {
                debug = Optional.of(badEvents(file, lines, i + 1));
                break;
            }
            if (line.startsWith("\t")) {
                if (perThread || rows.isEmpty()) {
                    throw ReportText.bad(file, i + 1, "a callstack line with no caller row above it: " + line.strip());
                }
                Row last = rows.removeLast();
                List<String> stack = new ArrayList<>(last.callstack());
                stack.add(frame(file, i + 1, line));
                rows.add(new Row(last.waits(), last.type(), last.caller(), stack));
                continue;
            }
            Cursor c = new Cursor(line);
            Waits w = waits(file, i + 1, line, columns, c);
            if (perThread) {
                threads.add(threadRow(file, i + 1, line, w, c));
            } else {
                rows.add(callerRow(file, i + 1, line, w, c));
            }
        }
        return new PerfLockContention(file, columns, perThread, rows, threads, debug, preamble);
    }

    private static List<Column> header(Path file, int lineNo, String line) throws MalformedResultException {
        Cursor c = new Cursor(line);
        List<Column> columns = new ArrayList<>();
        boolean found = true;
        while (found) {
            found = false;
            for (Column col : Column.values()) {
                if (c.take(col.header())) {
                    if (columns.contains(col)) {
                        throw ReportText.bad(file, lineNo, "header names '" + col.header() + "' twice: " + line.strip());
                    }
                    columns.add(col);
                    found = true;
                    break;
                }
            }
        }
        String tail = c.rest().replaceAll("\\s+", " ");
        if (!tail.equals("type caller") && !tail.equals("pid comm")) {
            throw ReportText.bad(file, lineNo, "header has an unknown column before '" + tail + "': " + line.strip());
        }
        for (Column needed : List.of(Column.CONTENDED, Column.WAIT_TOTAL)) {
            if (!columns.contains(needed)) {
                throw ReportText.bad(file, lineNo, "header has no '" + needed.header() + "' column (run with -F "
                        + needed.field() + ",...): " + line.strip());
            }
        }
        return columns;
    }

    private static Waits waits(Path file, int lineNo, String line, List<Column> columns, Cursor c)
            throws MalformedResultException {
        long contended = 0;
        Map<Column, Time> times = new LinkedHashMap<>();
        for (Column col : columns) {
            String value = c.next();
            if (value == null) {
                throw ReportText.bad(file, lineNo, "ends before its '" + col.header() + "' column: " + line.strip());
            }
            if (col == Column.CONTENDED) {
                if (!COUNT.matcher(value).matches()) {
                    throw ReportText.bad(file, lineNo, "contended '" + value + "' is not a count: " + line.strip());
                }
                contended = Long.parseLong(value);
            } else {
                times.put(col, time(file, lineNo, line, col, value, c.next()));
            }
        }
        return new Waits(contended, times.get(Column.WAIT_TOTAL), times.get(Column.WAIT_MAX),
                times.get(Column.WAIT_MIN), times.get(Column.AVG_WAIT));
    }

    private static Time time(Path file, int lineNo, String line, Column col, String value, String unit)
            throws MalformedResultException {
        String what = col.header() + " '" + value + " " + unit + "'";
        if (unit == null) {
            throw ReportText.bad(file, lineNo, col.header() + " '" + value + "' has no unit: " + line.strip());
        }
        boolean ok = switch (unit) {
            case "ns" -> COUNT.matcher(value).matches();
            case "h", "m", "s", "ms", "us" -> TWO_DECIMALS.matcher(value).matches();
            default -> throw ReportText.bad(file, lineNo, what + ": unit is none of h m s ms us ns: " + line.strip());
        };
        if (!ok) {
            throw ReportText.bad(file, lineNo, what + ": not printed as " + (unit.equals("ns") ? "%llu" : "%.2f")
                    + ": " + line.strip());
        }
        return new Time(Double.parseDouble(value), unit);
    }

    private static Row callerRow(Path file, int lineNo, String line, Waits w, Cursor c) throws MalformedResultException {
        String type = c.next();
        if (type == null || !TYPES.contains(type)) {
            throw ReportText.bad(file, lineNo, "lock type '" + type + "' is none of get_type_str()'s: " + line.strip());
        }
        String caller = c.rest();
        if (caller.isEmpty()) {
            throw ReportText.bad(file, lineNo, "no caller after the type: " + line.strip());
        }
        return new Row(w, type, caller, List.of());
    }

    private static ThreadRow threadRow(Path file, int lineNo, String line, Waits w, Cursor c)
            throws MalformedResultException {
        String pid = c.next();
        if (pid == null || !PID.matcher(pid).matches()) {
            throw ReportText.bad(file, lineNo, "pid '" + pid + "' is not a number: " + line.strip());
        }
        String comm = c.rest();
        if (comm.isEmpty()) {
            throw ReportText.bad(file, lineNo, "no comm after the pid: " + line.strip());
        }
        return new ThreadRow(w, Integer.parseInt(pid), comm);
    }

    private static String frame(Path file, int lineNo, String line) throws MalformedResultException {
        Cursor c = new Cursor(line);
        String addr = c.next();
        if (addr == null || !addr.matches("0x[0-9a-f]+")) {
            throw ReportText.bad(file, lineNo, "callstack line does not start with an address: " + line.strip());
        }
        String sym = c.rest();
        return sym.isEmpty() ? addr : addr + "  " + sym;
    }

    private static BadEvents badEvents(Path file, List<String> lines, int from) throws MalformedResultException {
        int i = from;
        while (i < lines.size() && lines.get(i).isBlank()) {
            i++;
        }
        Matcher bt = expect(file, lines, i++, BAD_TOTAL, "bad: N, total: N");
        expect(file, lines, i++, BAD_RATE, "bad rate: N.NN %");
        if (i >= lines.size() || !lines.get(i).strip().equals(HISTOGRAM)) {
            throw ReportText.bad(file, i + 1, "expected '" + HISTOGRAM + "' in the debug trailer");
        }
        i++;
        Map<String, Integer> histogram = new LinkedHashMap<>();
        for (String name : BAD_EVENT_NAMES) {
            Matcher m = expect(file, lines, i++, HISTOGRAM_LINE, "'" + name + ": N'");
            if (!m.group(1).equals(name)) {
                throw ReportText.bad(file, i, "expected the histogram's '" + name + "', got '" + m.group(1) + "'");
            }
            histogram.put(name, Integer.parseInt(m.group(2)));
        }
        for (; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                throw ReportText.bad(file, i + 1, "text after the debug trailer: " + lines.get(i).strip());
            }
        }
        return new BadEvents(Integer.parseInt(bt.group(1)), Integer.parseInt(bt.group(2)), histogram);
    }

    private static Matcher expect(Path file, List<String> lines, int i, Pattern p, String what)
            throws MalformedResultException {
        if (i >= lines.size()) {
            throw ReportText.bad(file, i + 1, "the debug trailer ends before " + what);
        }
        Matcher m = p.matcher(lines.get(i).strip());
        if (!m.matches()) {
            throw ReportText.bad(file, i + 1, "expected " + what + " in the debug trailer, got: " + lines.get(i).strip());
        }
        return m;
    }
}
