package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import lab.jobspec.stats.JobWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lab's {@link IoSequence} against fio 3.33 itself, for the job files of
 * {@code src/test/resources/fio-corpus/} (the lab's own, written from fio's HOWTO): fio runs each
 * on a sparse regular file with {@code ioengine=psync} and {@code write_iolog}, the lab walks the
 * same job's sequence the way its clone loops do ({@link JobWindow#nextInPass}), and the two must
 * agree on the I/O count per direction, the sizes issued and the offsets' range. The exact
 * offsets differ (different generators). Skipped where {@code fio} 3.33 is not on the PATH.
 *
 * <p>Each file's header says {@code contract: exact} or {@code contract: tolerance}:
 * <ul>
 * <li>exact: the same reads, writes, bytes and size histogram;</li>
 * <li>tolerance (the size or direction of an I/O is drawn at random): reads, writes and bytes
 *     within {@value #COUNT_TOLERANCE} of fio's (relative, at least 5 I/Os), and each size's share
 *     of the I/Os within {@value #SHARE_TOLERANCE} (absolute: 0.06 is six percentage points). These are about
 *     three standard deviations of the spread between two seeds of fio itself for these files
 *     (a few hundred I/Os each), and small enough to catch a wrong algorithm: drawing sizes
 *     without cutting them at the random map gives about 30% fewer I/Os than fio.</li>
 * </ul>
 * Always: every I/O of both within {@code [offset, offset + size)}; where fio's I/Os cover the
 * region from its first byte to its last, the lab's too, and otherwise the lab's lowest offset and
 * highest end within {@value #SPAN_TOLERANCE} of the region's size of fio's (random offsets, or a
 * read/write mix whose two sequential positions each cover part of the region), except for a
 * file with a {@code ; concentration} header (zipf, pareto, normal: fio seeds them from the file's
 * name, so which blocks a run hits, the extremes included, is chance); and fio's JSON
 * {@code total_ios} equal to its iolog's count (so the log is read right).
 */
@Execution(ExecutionMode.CONCURRENT) // its runs wait on fio: beside each other (junit-platform.properties)
class FioContractTest {
    static final double COUNT_TOLERANCE = 0.15;
    static final double SHARE_TOLERANCE = 0.06;
    static final double SPAN_TOLERANCE = 0.1;

    @TempDir
    Path dir;

    /** What a run issued. */
    static final class Issued {
        long reads;
        long writes;
        long bytes;
        long minOffset = Long.MAX_VALUE;
        long maxEnd;
        final Map<Long, Long> sizes = new TreeMap<>();
        final List<Long> offsets = new ArrayList<>();
        final List<Long> lengths = new ArrayList<>();

        void add(boolean read, long offset, long len) {
            offsets.add(offset);
            lengths.add(len);
            if (read) {
                reads++;
            } else {
                writes++;
            }
            bytes += len;
            minOffset = Math.min(minOffset, offset);
            maxEnd = Math.max(maxEnd, offset + len);
            sizes.merge(len, 1L, Long::sum);
        }

        long ios() {
            return reads + writes;
        }

        double share(long size) {
            return sizes.getOrDefault(size, 0L) / (double) ios();
        }

        /** The share of the I/Os in each of {@code n} equal parts of {@code [start, start + size)}. */
        double[] histogram(long start, long size, int n) {
            double[] h = new double[n];
            for (long o : offsets) {
                h[(int) Math.min(n - 1, (o - start) * n / size)] += 1.0 / offsets.size();
            }
            return h;
        }

        /** The share of the I/Os after the first that start where the one before them ended. */
        double sequentialShare() {
            long n = 0;
            for (int i = 1; i < offsets.size(); i++) {
                n += offsets.get(i) == offsets.get(i - 1) + lengths.get(i - 1) ? 1 : 0;
            }
            return n / (double) Math.max(1, offsets.size() - 1);
        }

        /** The share of the I/Os that land on the {@code percent}% of the region's blocks read or written most. */
        double concentration(long blocks, long blockSize, double percent) {
            Map<Long, Long> hits = new HashMap<>();
            for (long o : offsets) {
                hits.merge(o / blockSize, 1L, Long::sum);
            }
            long top = Math.max(1, (long) (blocks * percent / 100));
            return hits.values().stream().sorted(Comparator.reverseOrder()).limit(top).mapToLong(Long::longValue).sum()
                    / (double) offsets.size();
        }

        @Override
        public String toString() {
            return "reads=" + reads + " writes=" + writes + " bytes=" + bytes + " offsets=[" + minOffset + ", "
                    + maxEnd + ") sizes=" + sizes;
        }
    }

    static Stream<Path> corpus() throws IOException, URISyntaxException {
        Path d = Path.of(FioContractTest.class.getResource("/fio-corpus").toURI());
        try (Stream<Path> files = Files.list(d)) {
            return files.filter(f -> f.toString().endsWith(".fio")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void labIssuesWhatFioIssues(Path jobFile) throws Exception {
        InstalledFio.require();
        String text = Files.readString(jobFile);
        boolean exact = text.contains("; contract: exact");
        assertTrue(exact || text.contains("; contract: tolerance"), "the header names its contract");
        JobFile parsed = JobFileParser.parse(jobFile);
        assertEquals(1, parsed.jobs().size(), "one job per corpus file");
        Job job = parsed.jobs().getFirst();

        Issued fio = runFio(jobFile, job);
        Issued lab = runLab(job);
        String both = "\nfio: " + fio + "\nlab: " + lab;
        System.out.println(jobFile.getFileName() + both);

        long start = job.offset();
        long end = job.offset() + job.size();
        for (Issued i : List.of(fio, lab)) {
            assertTrue(i.minOffset >= start && i.maxEnd <= end, "within [" + start + ", " + end + ")" + both);
        }
        if (header(text, "concentration") != null) {
            // zipf, pareto, normal: fio seeds them from the file's name (a temporary one here), and
            // whether the region's first and last blocks are hit is chance; held by concentration
        } else if (fio.minOffset == start && fio.maxEnd == end) {
            assertEquals(start, lab.minOffset, "fio covers the region from its start" + both);
            assertEquals(end, lab.maxEnd, "fio covers the region to its end" + both);
        } else {
            assertEquals(fio.minOffset, lab.minOffset, SPAN_TOLERANCE * job.size(), "lowest offset" + both);
            assertEquals(fio.maxEnd, lab.maxEnd, SPAN_TOLERANCE * job.size(), "highest end" + both);
        }
        checkPlacement(text, job, fio, lab, both);
        if (exact) {
            assertEquals(fio.reads, lab.reads, "reads" + both);
            assertEquals(fio.writes, lab.writes, "writes" + both);
            assertEquals(fio.bytes, lab.bytes, "bytes" + both);
            assertEquals(fio.sizes, lab.sizes, "sizes" + both);
            return;
        }
        assertNear(fio.reads, lab.reads, "reads" + both);
        assertNear(fio.writes, lab.writes, "writes" + both);
        assertNear(fio.bytes, lab.bytes, "bytes" + both);
        TreeSet<Long> sizes = new TreeSet<>(fio.sizes.keySet());
        sizes.addAll(lab.sizes.keySet());
        for (long s : sizes) {
            assertEquals(fio.share(s), lab.share(s), SHARE_TOLERANCE, "share of " + s + "-byte I/Os" + both);
        }
    }

    /**
     * fio's examples/cmdprio-bssplit.fio in small: reads of 64k and 1m, writes of 1m, with the
     * random map. fio counts the map's bits in 64k blocks, and a write whose drawn bit is taken
     * gets the next free one of all, often past the region, which ends the pass: about half the
     * bytes are done, a different part each seed. One seed says little, so both run
     * {@value #SEEDS} seeds and the means of their reads, writes and bytes must agree within four
     * standard errors of the difference, and each side must end a quarter of its passes short of
     * {@code size} (a map kept in one unit ends none). {@code randrepeat=0}: with fio's default
     * {@code randrepeat=1} the offsets' stream ignores {@code randseed} ({@code td_fill_rand_seeds()}
     * seeds it from the thread number), so its seeds would differ in directions and sizes only.
     */
    @Test
    void aMapOfTwoUnitsEndsThePassWhereFiosDoes() throws Exception {
        InstalledFio.require();
        double[][] fio = new double[3][SEEDS];
        double[][] lab = new double[3][SEEDS];
        long size = 64L << 20;
        for (int seed = 1; seed <= SEEDS; seed++) {
            Path jobFile = dir.resolve("two-units-" + seed + ".fio");
            Files.writeString(jobFile, "[two-units]\nrw=randrw\nbssplit=64k/40:1024k/60,1024k/100\nsize=" + size
                    + "\nrandrepeat=0\nrandseed=" + seed + "\n");
            Job job = JobFileParser.parse(jobFile).jobs().getFirst();
            Issued f = runFio(jobFile, job);
            Issued l = runLab(job);
            int k = seed - 1;
            fio[0][k] = f.reads;
            fio[1][k] = f.writes;
            fio[2][k] = f.bytes;
            lab[0][k] = l.reads;
            lab[1][k] = l.writes;
            lab[2][k] = l.bytes;
        }
        String[] what = {"reads", "writes", "bytes"};
        for (int i = 0; i < 3; i++) {
            double mf = mean(fio[i]);
            double ml = mean(lab[i]);
            double se = Math.sqrt(variance(fio[i], mf) / SEEDS + variance(lab[i], ml) / SEEDS);
            String both = what[i] + ": fio " + Arrays.toString(fio[i]) + ", lab " + Arrays.toString(lab[i]);
            System.out.println("two units, " + both);
            assertTrue(Math.abs(mf - ml) <= 4 * se, "mean " + ml + " not within 4 SE (" + se + ") of fio's " + mf
                    + "; " + both);
        }
        for (double[][] side : new double[][][] {fio, lab}) {
            long shortPasses = Arrays.stream(side[2]).filter(b -> b < size).count();
            assertTrue(shortPasses >= SEEDS / 4, shortPasses + " of " + SEEDS + " passes end short of size: "
                    + Arrays.toString(side[2]));
        }
    }

    static final int SEEDS = 20;

    private static double mean(double[] x) {
        return Arrays.stream(x).average().orElseThrow();
    }

    private static double variance(double[] x, double mean) {
        return Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum() / (x.length - 1);
    }

    /**
     * What a header asks of where the I/Os land: {@code ; histogram: N}, the share of the I/Os in
     * each of N equal parts of the region within {@value #SHARE_TOLERANCE}; {@code ; concentration: P},
     * the share on the P% of blocks hit most within {@value #SHARE_TOLERANCE} (a distribution whose
     * blocks fio's hash scatters); {@code ; align: A}, every offset of both a multiple of A;
     * {@code ; offsets: exact}, the same offsets in the same order (a sequential walk);
     * {@code ; sequential-share: compared}, the share of I/Os that start where the one before ended within
     * {@value #SHARE_TOLERANCE} ({@code rw=randread:N}).
     */
    private static void checkPlacement(String text, Job job, Issued fio, Issued lab, String both) {
        String histogram = header(text, "histogram");
        if (histogram != null) {
            int n = Integer.parseInt(histogram);
            double[] f = fio.histogram(job.offset(), job.size(), n);
            double[] l = lab.histogram(job.offset(), job.size(), n);
            for (int i = 0; i < n; i++) {
                assertEquals(f[i], l[i], SHARE_TOLERANCE, "share of part " + i + " of " + n + ": fio "
                        + Arrays.toString(f) + " lab " + Arrays.toString(l));
            }
        }
        String concentration = header(text, "concentration");
        if (concentration != null) {
            double p = Double.parseDouble(concentration);
            long blocks = job.size() / job.minBs();
            double f = fio.concentration(blocks, job.minBs(), p);
            double l = lab.concentration(blocks, job.minBs(), p);
            assertEquals(f, l, SHARE_TOLERANCE, "share of the I/Os on the " + p + "% of blocks hit most" + both);
        }
        if (header(text, "offsets") != null) {
            assertEquals(fio.offsets, lab.offsets, "the same offsets in the same order" + both);
        }
        String sequential = header(text, "sequential-share");
        if (sequential != null) {
            assertEquals(fio.sequentialShare(), lab.sequentialShare(), SHARE_TOLERANCE,
                    "share of the I/Os that start where the one before ended" + both);
        }
        String align = header(text, "align");
        if (align != null) {
            long a = Long.parseLong(align);
            for (Issued i : List.of(fio, lab)) {
                assertTrue(i.offsets.stream().allMatch(o -> o % a == 0), "every offset a multiple of " + a + both);
            }
        }
    }

    /** The value of a {@code ; NAME: VALUE} header line, or null. */
    private static String header(String text, String name) {
        for (String line : text.split("\n")) {
            if (line.startsWith("; " + name + ": ")) {
                return line.substring(name.length() + 4).strip();
            }
        }
        return null;
    }

    private static void assertNear(long expected, long actual, String what) {
        double allowed = Math.max(5, COUNT_TOLERANCE * expected);
        assertTrue(Math.abs(expected - actual) <= allowed,
                what + ": " + actual + " not within " + allowed + " of " + expected);
    }

    /** The lab's clone 0, walked as JobThread and BridgeWorker walk it. */
    private static Issued runLab(Job job) {
        Issued out = new Issued();
        IoSequence seq = IoSequence.forJob(job, 0);
        JobWindow window = new JobWindow(job, System.nanoTime());
        while (window.nextInPass(seq)) {
            boolean read = seq.nextIsRead();
            out.add(read, seq.offset(), seq.length());
        }
        return out;
    }

    /** fio on a sparse file of {@code offset + size} bytes; what its iolog (version 3) records. */
    private Issued runFio(Path jobFile, Job job) throws Exception {
        Path data = dir.resolve("data");
        try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
            f.setLength(job.offset() + job.size());
        }
        Path log = dir.resolve("iolog");
        Path json = dir.resolve("out.json");
        Files.deleteIfExists(log); // fio appends to a log that exists
        Path copy = dir.resolve(jobFile.getFileName());
        Files.writeString(copy, Files.readString(jobFile) + "\nfilename=" + data + "\nioengine=psync\nwrite_iolog="
                + log + "\n");
        InstalledFio.Result fio = InstalledFio.require().run("--output-format=json", "--output=" + json, copy.toString());
        assertEquals(0, fio.exit(), "fio: " + fio.output());
        Issued out = new Issued();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 5 && (f[2].equals("read") || f[2].equals("write"))) {
                out.add(f[2].equals("read"), Long.parseLong(f[3]), Long.parseLong(f[4]));
            }
        }
        String report = Files.readString(json);
        assertEquals(out.reads, totalIos(report, "read"), "fio JSON read total_ios = iolog reads");
        assertEquals(out.writes, totalIos(report, "write"), "fio JSON write total_ios = iolog writes");
        return out;
    }

    /** {@code jobs[0].<dir>.total_ios} of fio's JSON, found by text (the test has no JSON library). */
    private static long totalIos(String json, String direction) {
        int at = json.indexOf("\"" + direction + "\" : {");
        assertTrue(at >= 0, direction + " in fio's JSON");
        int key = json.indexOf("\"total_ios\" : ", at);
        int from = key + "\"total_ios\" : ".length();
        int to = from;
        while (Character.isDigit(json.charAt(to))) {
            to++;
        }
        return Long.parseLong(json.substring(from, to));
    }
}
