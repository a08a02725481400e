package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lab.engine.block.DiskStats;
import lab.engine.load.DataPattern;
import lab.jobspec.Job;
import lab.jobspec.JobFileParser;
import lab.jobspec.Rw;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The benchmarks' workload is their fix's example job file: the embedded copy is the repository's
 * {@code examples/}, each benchmark's effective rw, rwmixread and bs are the file's (checked by
 * running its ops), and changing a key the benchmark depends on in a copy of the example changes
 * what the benchmark does.
 */
class ExampleWorkloadTest {
    private static final int OPS = 4000;

    /** The repository's examples folder (the module's basedir is the working directory of tests). */
    private static Path examplesDir() {
        Path dir = Path.of(System.getProperty("user.dir")).resolve("../examples").normalize();
        assertTrue(Files.isDirectory(dir), dir + " is not the repository's examples folder");
        return dir;
    }

    /** The example parsed from the repository's file itself, not through the jar. */
    private static Job repositoryJob(String name) throws Exception {
        return JobFileParser.parse(examplesDir().resolve(name + ".fio")).jobs().get(0);
    }

    /**
     * {@code examples/<name>.fio} with its {@code key} line (or bare flag) replaced by
     * {@code key=value}, or with that line appended to its job section when it has none.
     */
    private static Job with(String name, String key, String value) {
        String text = ExampleJob.text(name);
        Matcher m = Pattern.compile("(?m)^[ \\t]*" + Pattern.quote(key) + "[ \\t]*(=.*)?$").matcher(text);
        String line = key + "=" + value;
        if (m.find()) {
            return ExampleJob.parse(name, m.replaceAll(Matcher.quoteReplacement(line)), List.of());
        }
        return ExampleJob.parse(name, text, List.of(line));
    }

    @Test
    void embeddedExamplesAreTheRepositorys() throws Exception {
        List<String> repo;
        try (Stream<Path> files = Files.list(examplesDir())) {
            repo = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".fio"))
                    .map(n -> n.substring(0, n.length() - 4)).sorted().toList();
        }
        assertEquals(repo, BenchParamsTest.embeddedExamples(),
                "embedded examples differ from the repository's (one removed stays in target/classes until mvnw clean)");
        for (String name : repo) {
            assertEquals(Files.readString(examplesDir().resolve(name + ".fio")), ExampleJob.text(name),
                    "embedded examples/" + name + ".fio is stale: rebuild jvm-engine");
        }
    }

    // ---- DmCssRef ----

    private static DmCssRef.Stack dmCssRef(Job job) {
        DmCssRef.Stack s = new DmCssRef.Stack();
        s.variant = "atomic";
        s.depth = 2;
        s.device = "ram";
        s.inject = "none";
        s.baseNs = 0;
        s.setUp(1, job, lab.engine.count.SharedLines.NONE);
        return s;
    }

    /** The dm-css-ref benchmark takes the seed's randrw at bs=512 from its example, and follows a changed one. */
    @Test
    void dmCssRefDoesTheExamplesIo() throws Exception {
        Job example = repositoryJob(DmCssRef.EXAMPLE);
        DmCssRef.Stack s = dmCssRef(ExampleJob.load(DmCssRef.EXAMPLE, List.of()));
        assertEquals(IoMix.of(example), s.mix);
        assertEquals(512, s.mix.bs(), "the seed's bs=512");
        DmCssRef.Worker w = new DmCssRef.Worker();
        w.setUp(s);
        DmCssRef bench = new DmCssRef();
        for (int i = 0; i < OPS; i++) {
            bench.io(s, w);
        }
        w.tearDown();
        s.tearDown();
        assertEquals(OPS, w.completed, "every bio through the stack completed OK");
        DmCssRef.Stack changed = dmCssRef(with(DmCssRef.EXAMPLE, "bs", "4k"));
        assertEquals(4096, changed.mix.bs(), "bs=4k");
        changed.tearDown();
        DmCssRef.Stack reads = dmCssRef(with(DmCssRef.EXAMPLE, "rw", "randread"));
        assertEquals(100, reads.mix.readPercent());
        reads.tearDown();
    }

    /** The thin-bufio-lock benchmark takes the seed's randrw at bs=4k from its example, through thin and through linear. */
    @Test
    void thinBufioLockDoesTheExamplesIo() throws Exception {
        Job example = repositoryJob(ThinBufioLock.EXAMPLE);
        for (String target : ThinBufioLock.TARGETS) {
            ThinBufioLock.Stack s = new ThinBufioLock.Stack();
            s.variant = "rwsem-walk";
            s.target = target;
            s.cache = "whole";
            s.setUp(2, ExampleJob.load(ThinBufioLock.EXAMPLE, List.of()), lab.engine.count.SharedLines.NONE);
            assertEquals(IoMix.of(example), s.mix);
            assertEquals(4096, s.mix.bs(), "the seed's bs=4k");
            assertEquals(50, s.mix.readPercent(), "the seed's randrw, 50/50");
            ThinBufioLock.Worker w = new ThinBufioLock.Worker();
            w.setUp(s);
            ThinBufioLock bench = new ThinBufioLock();
            for (int i = 0; i < OPS; i++) {
                bench.io(s, w);
            }
            assertEquals(List.of(), s.pool.metadata().check(0), target);
            w.tearDown(); // the last worker out: frees the stack (LastOut)
            assertEquals(OPS, w.completed, target + ": every bio completed OK");
            s.tearDown();
        }
    }

    // ---- PartAcct ----

    private static PartAcct.Disk partAcct(int threads, Job job) {
        PartAcct.Disk d = new PartAcct.Disk();
        d.variant = "atomic";
        d.hz = 1000;
        d.slots = 4;
        d.target = "part";
        d.setUp(threads, job);
        return d;
    }

    /** Runs {@code n} ops of the benchmark on one worker and returns partition 1's stats. */
    private static DiskStats.Sum run(PartAcct.Disk d, int n) {
        PartAcct.Worker w = new PartAcct.Worker();
        w.setUp(d);
        PartAcct bench = new PartAcct();
        try {
            for (int i = 0; i < n; i++) {
                bench.io(d, w);
            }
        } finally {
            w.tearDown();
        }
        assertEquals(n, w.completed, "every op completed OK");
        DiskStats.Sum s = d.disk.partition(1).stat();
        d.tearDown();
        return s;
    }

    @Test
    void partAcctDoesTheExamplesIo() throws Exception {
        Job example = repositoryJob(PartAcct.EXAMPLE);
        PartAcct.Disk d = partAcct(1, ExampleJob.load(PartAcct.EXAMPLE, List.of())); // as @Setup loads it
        assertEquals(IoMix.of(example), d.mix);
        DiskStats.Sum s = run(d, OPS);
        long reads = example.rw().mixed() ? -1 : example.rw().reads() ? OPS : 0;
        if (reads >= 0) {
            assertEquals(reads, s.readIos(), "rw=" + example.rw());
            assertEquals(OPS - reads, s.writeIos(), "rw=" + example.rw());
        }
        assertEquals((long) OPS * example.bs() / 512, s.readSectors() + s.writeSectors(), "bs=" + example.bs());
    }

    /** bs, rw and rwmixread each change what the ops do when the example changes. */
    @Test
    void partAcctFollowsAChangedExample() {
        Job bsJob = with(PartAcct.EXAMPLE, "bs", "16k");
        Job rwJob = with(PartAcct.EXAMPLE, "rw", "randwrite");
        assertEquals(16384, bsJob.bs());
        DiskStats.Sum bs = run(partAcct(1, bsJob), OPS);
        assertEquals((long) OPS * 32, bs.readSectors() + bs.writeSectors(), "bs=16k: 32 sectors an I/O");

        DiskStats.Sum write = run(partAcct(1, rwJob), OPS);
        assertEquals(OPS, write.writeIos(), "rw=randwrite");
        assertEquals(0, write.readIos());

        DiskStats.Sum read = run(partAcct(1, with(PartAcct.EXAMPLE, "rw", "randread")), OPS);
        assertEquals(OPS, read.readIos(), "rw=randread");

        Job mixJob = ExampleJob.parse(PartAcct.EXAMPLE, ExampleJob.text(PartAcct.EXAMPLE), List.of("rw=randrw", "rwmixread=70"));
        DiskStats.Sum mix = run(partAcct(1, mixJob), OPS);
        assertEquals(OPS, mix.readIos() + mix.writeIos());
        double share = (double) mix.readIos() / OPS;
        assertTrue(Math.abs(share - 0.70) < 0.04, "rwmixread=70: read share " + share);
    }

    @Test
    void partAcctRefusesWhatItCannotModel() {
        Job seq = with(PartAcct.EXAMPLE, "rw", "read");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> partAcct(1, seq)).getMessage().contains("rw=read"));
        Job odd = with(PartAcct.EXAMPLE, "bs", "1000");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> partAcct(1, odd)).getMessage().contains("bs=1000"));
    }

    // ---- ZramInitLock ----

    private static ZramInitLock.Device zram(String rw, String pattern) {
        ZramInitLock.Device d = new ZramInitLock.Device();
        d.guard = "rwsem";
        d.rw = rw;
        d.pattern = pattern;
        d.compressor = "lzo-rle";
        d.sizeMiB = 1;
        return d;
    }

    /** Each rw variant runs its own example: rw and rwmixread from it, its bs zram's page, and ops that succeed. */
    @ParameterizedTest
    @ValueSource(strings = {"randread", "randwrite", "randrw"})
    void zramInitLockDoesTheExamplesIo(String rw) throws Exception {
        Job example = repositoryJob(ZramInitLock.EXAMPLE_PREFIX + rw);
        assertEquals(Rw.valueOf(rw.toUpperCase()), example.rw(), "examples/zram-init-lock-" + rw + ".fio's rw");
        ZramInitLock.Device d = zram(rw, "zero");
        d.setUp(); // the @Setup path: the embedded example with the pattern's settings
        try {
            assertEquals(IoMix.of(example), IoMix.of(d.job));
            assertEquals(IoMix.of(example).readPercent(), d.readPercent);
            ZramInitLock.Worker w = new ZramInitLock.Worker();
            w.setUp(d);
            ZramInitLock bench = new ZramInitLock();
            for (int i = 0; i < 1000; i++) {
                assertTrue(bench.io(d, w));
            }
        } finally {
            d.tearDown();
        }
    }

    /** The pattern variant replaces the example's buffer keys and nothing else; the example's own is a variant. */
    @ParameterizedTest
    @ValueSource(strings = {"randread", "randwrite", "randrw"})
    void zramPatternOverridesOnlyThePattern(String rw) throws Exception {
        Job example = repositoryJob(ZramInitLock.EXAMPLE_PREFIX + rw);
        assertTrue(BenchParamsTest.params(ZramInitLock.Device.class, "pattern").contains(DataPattern.of(example).id()),
                "the example's own data pattern is one the benchmark runs");
        for (DataPattern p : DataPattern.values()) {
            Job job = ExampleJob.load(ZramInitLock.EXAMPLE_PREFIX + rw, p.settings());
            assertEquals(p, DataPattern.of(job));
            assertEquals(IoMix.of(example), IoMix.of(job), p.id());
        }
    }

    @ParameterizedTest
    @CsvSource({"bs,8k,bs=8192", "rw,read,rw=read"})
    void zramInitLockRefusesWhatItCannotModel(String key, String value, String named) {
        Job job = with(ZramInitLock.EXAMPLE_PREFIX + "randread", key, value);
        ZramInitLock.Device d = zram("randread", "zero");
        String message = assertThrows(IllegalArgumentException.class, () -> d.setUp(job)).getMessage();
        assertTrue(message.contains(named), message);
    }

    /** rw, rwmixread, bs and the buffer keys each reach the derived workload; a key the derivation ignored would not. */
    @Test
    void everyKeyTheBenchmarksUseChangesTheirWorkload() {
        String name = ZramInitLock.EXAMPLE_PREFIX + "randrw";
        Job base = ExampleJob.load(name, List.of());
        IoMix mix = IoMix.of(base);
        assertNotEquals(mix, IoMix.of(with(name, "rw", base.rw() == Rw.RANDREAD ? "randwrite" : "randread")), "rw");
        assertNotEquals(mix, IoMix.of(with(name, "bs", base.bs() == 8192 ? "16k" : "8k")), "bs");
        Job randrw = ExampleJob.load(name, List.of("rw=randrw"));
        Job otherMix = ExampleJob.load(name, List.of("rw=randrw", "rwmixread=" + (randrw.rwmixread() == 80 ? 20 : 80)));
        assertNotEquals(IoMix.of(randrw), IoMix.of(otherMix), "rwmixread");
        for (DataPattern p : DataPattern.values()) {
            Job other = ExampleJob.load(name, p.settings());
            if (p != DataPattern.of(base)) {
                assertNotEquals(DataPattern.of(base), DataPattern.of(other), "buffer keys: " + p.id());
            }
        }
    }

    @Test
    void anExampleErrorNamesTheExample() {
        String message = assertThrows(IllegalArgumentException.class, () -> with(PartAcct.EXAMPLE, "bs", "4q")).getMessage();
        assertTrue(message.startsWith("examples/part-acct.fio:"), message);
    }
}
