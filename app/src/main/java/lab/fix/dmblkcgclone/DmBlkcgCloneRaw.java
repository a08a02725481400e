package lab.fix.dmblkcgclone;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lab.analysis.MalformedResultException;
import lab.engine.bench.DmBlkcgClone.Result;
import lab.fix.dmblkcgclone.DmBlkcgClone.Weights;
import lab.results.RunDir;

/**
 * The raw files of a dm-blkcg-clone run, under {@code raw/dm-blkcg-clone/}: the contract the
 * pairing that writes them and the section that reads them share.
 *
 * <ul>
 *   <li>{@code model-rK.json}: round K of the model at its own disk's bandwidth
 *       ({@code lab.engine.bench.DmBlkcgClone.RAW_MIB_PER_SEC}): a JSON array of the engine's
 *       {@code DmBlkcgClone.Result}s, one a line, in the order they ran: {@code config} (variant,
 *       stack, path, weightA, weightB, mibPerSec, rampMs, runMs), {@code bytesA}, {@code bytesB}
 *       (what each writer wrote in the window), {@code windowNs}, {@code charged} (per cgroup,
 *       {@code "/"}, {@code "/a"}, {@code "/b"}: bios, bytes and bios carrying an association the
 *       disk charged it in the window), {@code timeline} (atMs, bytesA, bytesB since the start,
 *       every {@code SAMPLE_MS}), {@code errors};</li>
 *   <li>{@code calibrated-rK.json}: the same, the disk's bandwidth the kernel's (its
 *       {@code config.mibPerSec}; where it came from: {@link DmBlkcgCloneKernel#bandwidth}), for
 *       the short stacks; absent where the run had no kernel figure;</li>
 *   <li>{@code kernel/} (LAB_OUT of the scenario {@code dm-blkcg-clone}):
 *       {@code runs.tsv}, a header then one row per measurement, tab-separated, the columns
 *       {@link #COLUMNS}: env {@code native|guest}, stack {@code loop|linear|thin}, path
 *       {@code direct|buffered}, the two weights, the round, the fio JSON files of the writers in
 *       cgroups a and b (relative to {@code kernel/}), the bytes the bottom device charged to a and
 *       to b ({@code -}: unknown), the bottom device's written bytes ({@code -}: unknown), wall
 *       seconds; {@code env.txt} ({@code key: value} lines: the environment, kernel, cgroup
 *       version, scheduler, devices, and {@code native_why}/{@code guest_why} for parts skipped);
 *       {@code scenario.log}.</li>
 * </ul>
 *
 * <p>Under {@code flamegraphs/dm-blkcg-clone/} the pairing leaves {@link #FLAMEGRAPH_NOTE}, no flamegraph.
 */
final class DmBlkcgCloneRaw {
    private DmBlkcgCloneRaw() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    static final String MODEL = "model";
    static final String CALIBRATED = "calibrated";
    private static final Pattern FILE = Pattern.compile("(" + MODEL + "|" + CALIBRATED + ")-r(\\d+)\\.json");

    static final String KERNEL = "kernel";
    static final String RUNS = "runs.tsv";
    static final List<String> COLUMNS = List.of("env", "stack", "path", "weight_a", "weight_b", "round", "a_json", "b_json", "a_wbytes",
            "b_wbytes", "dev_wbytes", "seconds");
    /** A byte count the scenario could not read. */
    static final String UNKNOWN = "-";
    static final String FLAMEGRAPH_NOTE = "NO-FLAMEGRAPH.txt";

    static Path file(Path raw, String prefix, int round) {
        return raw.resolve(prefix + "-r" + round + ".json");
    }

    /** Writes one round's results, one JSON object a line. */
    static void write(Path f, List<Result> results) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Result r : results) {
            lines.add(JSON.writeValueAsString(r));
        }
        Files.writeString(f, "[\n" + String.join(",\n", lines) + "\n]\n", StandardCharsets.UTF_8);
    }

    static List<Result> read(Path f) throws MalformedResultException {
        try {
            List<Result> r = JSON.readValue(f.toFile(), new TypeReference<List<Result>>() {});
            if (r == null) {
                throw new MalformedResultException(f, "not a JSON array of DmBlkcgClone results");
            }
            return r;
        } catch (IOException e) {
            throw new MalformedResultException(f, "not a JSON array of DmBlkcgClone results ("
                    + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }

    /** Every round of {@code prefix} in {@code dir}: round -> its results; a broken file is a gap of {@code run}. */
    static Map<Integer, List<Result>> rounds(RunDir run, Path dir, String prefix) throws IOException {
        Map<Integer, List<Result>> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.sorted().toList()) {
                Matcher m = FILE.matcher(f.getFileName().toString());
                if (m.matches() && m.group(1).equals(prefix)) {
                    try {
                        out.put(Integer.parseInt(m.group(2)), read(f));
                    } catch (MalformedResultException e) {
                        run.gap(e);
                    }
                }
            }
        }
        return out;
    }

    /**
     * One row of {@code kernel/runs.tsv}.
     *
     * @param aWbytes   bytes the bottom device charged to cgroup a; null where unknown
     * @param bWbytes   to cgroup b; null where unknown
     * @param devWbytes the bottom device's written bytes; null where unknown
     */
    record KernelRow(String env, String stack, String path, Weights weights, int round, String aJson, String bJson, Long aWbytes,
                     Long bWbytes, Long devWbytes, double seconds) {}

    /** {@code runs.tsv}'s rows; a header other than {@link #COLUMNS} or a malformed line is an error naming the file and line. */
    static List<KernelRow> readRuns(Path tsv) throws MalformedResultException {
        List<String> lines;
        try {
            lines = Files.readAllLines(tsv);
        } catch (IOException e) {
            throw new MalformedResultException(tsv, "not readable (" + e.getMessage() + ")");
        }
        if (lines.isEmpty() || !List.of(lines.getFirst().split("\t", -1)).equals(COLUMNS)) {
            throw new MalformedResultException(tsv, "line 1: the header is not " + String.join("<TAB>", COLUMNS));
        }
        List<KernelRow> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            String[] c = line.split("\t", -1);
            String at = "line " + (i + 1) + ": ";
            if (c.length != COLUMNS.size()) {
                throw new MalformedResultException(tsv, at + c.length + " tab-separated fields, not " + COLUMNS.size());
            }
            try {
                rows.add(new KernelRow(oneOf(c[0], "env", List.of("native", "guest")), oneOf(c[1], "stack", List.of("loop", "linear", "thin")),
                        oneOf(c[2], "path", List.of(DmBlkcgClone.DIRECT, DmBlkcgClone.BUFFERED)),
                        new Weights(positive(c[3], "weight_a"), positive(c[4], "weight_b")), positive(c[5], "round"), c[6], c[7],
                        bytes(c[8], "a_wbytes"), bytes(c[9], "b_wbytes"), bytes(c[10], "dev_wbytes"), seconds(c[11])));
            } catch (IllegalArgumentException e) {
                throw new MalformedResultException(tsv, at + e.getMessage());
            }
        }
        return rows;
    }

    private static String oneOf(String v, String column, List<String> allowed) {
        if (!allowed.contains(v)) {
            throw new IllegalArgumentException(column + " '" + v + "' is not one of " + allowed);
        }
        return v;
    }

    private static int positive(String v, String column) {
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(column + " '" + v + "' is not a positive integer");
    }

    private static Long bytes(String v, String column) {
        if (v.equals(UNKNOWN)) {
            return null;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(column + " '" + v + "' is neither a byte count nor '" + UNKNOWN + "'");
    }

    private static double seconds(String v) {
        try {
            double s = Double.parseDouble(v);
            if (s >= 0 && Double.isFinite(s)) {
                return s;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("seconds '" + v + "' is not a non-negative number");
    }
}
