package lab.analysis.parse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import lab.analysis.MalformedResultException;
import lab.analysis.parse.ReportText.Cursor;

/**
 * The cache lines of a {@code perf c2c report --stdio} (perf 6.1, {@code tools/perf/builtin-c2c.c}),
 * reduced to what the lab asks of them: which lines took the most HITMs (loads that hit a line
 * modified in another core's cache, local or remote node), and which code touched them.
 *
 * <p>Read from two of the report's tables. "Shared Data Cache Line Table" (HITM displays
 * {@code tot}, {@code rmt}, {@code lcl}; not {@code peer}) gives each line's index, address and
 * Load Hitm Total / LclHitm / RmtHitm, in that order among its 23 fields; Total must equal
 * LclHitm + RmtHitm. "Shared Cache Line Distribution Pareto" gives, per line, a row of
 * {@code Num Rmt Lcl L1Hit L1Miss N/A Address} between two dashed lines, then one row per
 * offset and code address: five percentages (HITM Rmt, Lcl; store refs), the offset, ..., the
 * symbol after its level marker ({@code [k]} kernel, {@code [.]} user, {@code [g]}, {@code [u]},
 * {@code [H]}), then the code's shared object ({@code [kernel.kallsyms]}, {@code [dm_bufio]},
 * {@code fio}). perf 6.1 prints no data symbol or data type: the only object a line names is the
 * one of the code that touched it. A symbol with spaces (a demangled C++ name) is not supported:
 * its first word is taken as the symbol. The other sections (Trace Event Information, ...) are
 * not read.
 *
 * @param file where the report came from
 * @param lines every line of the table, in printed order
 */
public record PerfC2c(Path file, List<CacheLine> lines) {

    private static final String TABLE = "Shared Data Cache Line Table";
    private static final String PARETO = "Shared Cache Line Distribution Pareto";
    private static final String TABLE_HEADER = "Index Address Node PA cnt Hitm Total LclHitm RmtHitm records Loads"
            + " Stores L1Hit L1Miss N/A FB L1 L2 LclHit LclHitm RmtHit RmtHitm Lcl Rmt";
    private static final int TABLE_FIELDS = 23;
    private static final Pattern HEX = Pattern.compile("0x[0-9a-f]+");
    private static final Pattern COUNT = Pattern.compile("\\d+");
    private static final Pattern PERCENT = Pattern.compile("\\d+\\.\\d{2}%");
    private static final Pattern LEVEL = Pattern.compile("\\[[k.guH]\\]");
    private static final Pattern DASHES = Pattern.compile("\\s*-{70}\\s*");

    /**
     * Code that touched a line at one offset.
     *
     * @param rmtHitmPct its share of the line's remote HITMs, in percent
     * @param lclHitmPct its share of the line's local HITMs, in percent
     */
    public record Access(String offset, String codeAddress, String symbol, String object,
                         double rmtHitmPct, double lclHitmPct) {
        public Access {
            Objects.requireNonNull(symbol, "symbol");
            Objects.requireNonNull(object, "object");
        }
    }

    /** One cache line: the table's counts and the Pareto's accesses. */
    public record CacheLine(int index, String address, long localHitm, long remoteHitm, List<Access> accesses) {
        public CacheLine {
            Objects.requireNonNull(address, "address");
            accesses = List.copyOf(accesses);
        }

        public long totalHitm() {
            return localHitm + remoteHitm;
        }

        /**
         * The symbols that touched the line, most HITMs first (an access's HITMs: its shares of
         * the line's remote and local HITMs), each once; ties keep printed order.
         */
        public List<String> symbols() {
            Map<String, Double> hitm = new LinkedHashMap<>();
            for (Access a : accesses) {
                hitm.merge(a.symbol(), (a.rmtHitmPct() * remoteHitm + a.lclHitmPct() * localHitm) / 100, Double::sum);
            }
            return hitm.entrySet().stream()
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .map(Map.Entry::getKey).toList();
        }

        /** The shared objects of the code that touched the line, each once, in printed order. */
        public List<String> objects() {
            return accesses.stream().map(Access::object).distinct().toList();
        }
    }

    public PerfC2c {
        Objects.requireNonNull(file, "file");
        lines = List.copyOf(lines);
    }

    /** The {@code n} lines with the most HITMs (local + remote), most first; ties keep printed order. */
    public List<CacheLine> top(int n) {
        return lines.stream().sorted(Comparator.comparingLong(CacheLine::totalHitm).reversed()).limit(n).toList();
    }

    /**
     * Reads a {@code perf c2c report --stdio} file.
     *
     * @throws MalformedResultException naming the file, for an unreadable file or one without
     *         the two tables; naming the line as well, for a table header other than the HITM
     *         display's, a row that does not read as perf prints it, a Total that is not
     *         LclHitm + RmtHitm, or a Pareto line whose address or HITM counts the table does not hold
     */
    public static PerfC2c read(Path file) throws MalformedResultException {
        List<String> text = ReportText.lines(file);
        int table = section(file, text, TABLE, 0);
        int pareto = section(file, text, PARETO, table);
        Map<String, CacheLine> byAddress = new LinkedHashMap<>();
        boolean header = false;
        for (int i = table + 1; i < pareto; i++) {
            String l = text.get(i);
            if (l.startsWith("#")) {
                header |= l.substring(1).strip().replaceAll("\\s+", " ").equals(TABLE_HEADER);
                continue;
            }
            if (l.isBlank() || l.startsWith("=")) {
                continue;
            }
            if (!header) {
                throw ReportText.bad(file, i + 1, "a row before the table's header '# " + TABLE_HEADER
                        + "' (not the HITM display: --display peer?)");
            }
            CacheLine c = tableRow(file, i + 1, l);
            byAddress.put(c.address(), c);
        }
        if (!header) {
            throw new MalformedResultException(file, "the " + TABLE + " has no header '# " + TABLE_HEADER + "'");
        }
        readPareto(file, text, pareto + 1, byAddress);
        return new PerfC2c(file, List.copyOf(byAddress.values()));
    }

    private static int section(Path file, List<String> text, String title, int from) throws MalformedResultException {
        for (int i = from; i < text.size(); i++) {
            if (text.get(i).strip().equals(title)) {
                return i;
            }
        }
        throw new MalformedResultException(file, "no '" + title + "' section (not perf c2c report --stdio output?)");
    }

    private static CacheLine tableRow(Path file, int lineNo, String l) throws MalformedResultException {
        String[] f = l.strip().split("\\s+");
        if (f.length != TABLE_FIELDS) {
            throw ReportText.bad(file, lineNo, f.length + " fields, the " + TABLE + " has " + TABLE_FIELDS + ": " + l.strip());
        }
        if (!COUNT.matcher(f[0]).matches() || !HEX.matcher(f[1]).matches()) {
            throw ReportText.bad(file, lineNo, "expected an index and a 0x address, got '" + f[0] + " " + f[1] + "'");
        }
        long total = count(file, lineNo, "Total", f[5]);
        long lcl = count(file, lineNo, "LclHitm", f[6]);
        long rmt = count(file, lineNo, "RmtHitm", f[7]);
        if (total != lcl + rmt) {
            throw ReportText.bad(file, lineNo, "Load Hitm Total " + total + " is not LclHitm " + lcl + " + RmtHitm " + rmt);
        }
        return new CacheLine(Integer.parseInt(f[0]), f[1], lcl, rmt, List.of());
    }

    private static void readPareto(Path file, List<String> text, int from, Map<String, CacheLine> byAddress)
            throws MalformedResultException {
        String address = null;
        List<Access> accesses = new ArrayList<>();
        for (int i = from; i < text.size(); i++) {
            String l = text.get(i);
            if (l.isBlank() || l.startsWith("#") || l.startsWith("=")) {
                continue;
            }
            if (DASHES.matcher(l).matches()) {
                if (i + 2 >= text.size() || !DASHES.matcher(text.get(i + 2)).matches()) {
                    throw ReportText.bad(file, i + 2, "expected a cache line's row between two dashed lines");
                }
                close(byAddress, address, accesses);
                address = paretoLine(file, i + 2, text.get(i + 1), byAddress);
                accesses = new ArrayList<>();
                i += 2;
                continue;
            }
            if (address == null) {
                throw ReportText.bad(file, i + 1, "an offset row before any cache line: " + l.strip());
            }
            accesses.add(access(file, i + 1, l));
        }
        close(byAddress, address, accesses);
    }

    private static void close(Map<String, CacheLine> byAddress, String address, List<Access> accesses) {
        if (address != null) {
            CacheLine c = byAddress.get(address);
            byAddress.put(address, new CacheLine(c.index(), address, c.localHitm(), c.remoteHitm(), accesses));
        }
    }

    private static String paretoLine(Path file, int lineNo, String l, Map<String, CacheLine> byAddress)
            throws MalformedResultException {
        String[] f = l.strip().split("\\s+");
        if (f.length != 7 || !HEX.matcher(f[6]).matches()) {
            throw ReportText.bad(file, lineNo, "expected 'Num Rmt Lcl L1Hit L1Miss N/A 0xaddress', got: " + l.strip());
        }
        CacheLine c = byAddress.get(f[6]);
        if (c == null) {
            throw ReportText.bad(file, lineNo, "cache line " + f[6] + " is not in the " + TABLE);
        }
        long rmt = count(file, lineNo, "Rmt", f[1]);
        long lcl = count(file, lineNo, "Lcl", f[2]);
        if (rmt != c.remoteHitm() || lcl != c.localHitm()) {
            throw ReportText.bad(file, lineNo, "HITM Rmt " + rmt + " Lcl " + lcl + " of " + f[6] + " differ from the "
                    + TABLE + "'s " + c.remoteHitm() + " and " + c.localHitm());
        }
        return f[6];
    }

    private static Access access(Path file, int lineNo, String l) throws MalformedResultException {
        Cursor c = new Cursor(l);
        double[] pct = new double[5];
        for (int k = 0; k < pct.length; k++) {
            String p = c.next();
            if (p == null || !PERCENT.matcher(p).matches()) {
                throw ReportText.bad(file, lineNo, "expected 5 percentages (HITM Rmt Lcl, Store Refs) first: " + l.strip());
            }
            pct[k] = Double.parseDouble(p.substring(0, p.length() - 1));
        }
        String offset = c.next();
        String codeAddress = null;
        String t = c.next();
        while (t != null && !LEVEL.matcher(t).matches()) {
            if (HEX.matcher(t).matches()) {
                codeAddress = t;
            }
            t = c.next();
        }
        String symbol = c.next();
        String object = c.next();
        if (t == null || symbol == null || object == null) {
            throw ReportText.bad(file, lineNo, "no '[k] symbol object' (or [.], [g], [u], [H]) in the offset row: " + l.strip());
        }
        return new Access(offset, codeAddress, symbol, object, pct[0], pct[1]);
    }

    private static long count(Path file, int lineNo, String what, String v) throws MalformedResultException {
        if (!COUNT.matcher(v).matches()) {
            throw ReportText.bad(file, lineNo, what + " '" + v + "' is not a count");
        }
        return Long.parseLong(v);
    }
}
