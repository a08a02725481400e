package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class JobFileParserTest {
    private static final long SECOND_NS = 1_000_000_000L;

    @TempDir
    Path dir;

    private Path write(String text) throws IOException {
        return write(text.getBytes(StandardCharsets.UTF_8));
    }

    private Path write(byte[] bytes) throws IOException {
        Path file = dir.resolve("job.fio");
        Files.write(file, bytes);
        return file;
    }

    private List<Job> jobs(String text) throws Exception {
        return JobFileParser.parse(write(text)).jobs();
    }

    private Job only(String text) throws Exception {
        List<Job> jobs = jobs(text);
        assertEquals(1, jobs.size());
        return jobs.get(0);
    }

    /** Parses "[j]\nsize=1m\n" plus {@code extra} (from line 3). */
    private Job job(String extra) throws Exception {
        return only("[j]\nsize=1m\n" + extra + "\n");
    }

    private static void assertRefused(Path file, int line, String key, ThrowingParse parse) {
        JobSpecException e = assertThrows(JobSpecException.class, parse::run);
        assertAll(
                () -> assertEquals(file, e.file(), "file"),
                () -> assertEquals(line, e.line(), "line: " + e.getMessage()),
                () -> assertEquals(key, e.key(), "key: " + e.getMessage()),
                () -> assertTrue(e.getMessage().startsWith(file + ":" + line + ": key '" + (key == null ? "-" : key)
                        + "': "), e.getMessage()));
    }

    private void assertRefused(String text, int line, String key) throws IOException {
        Path file = write(text);
        assertRefused(file, line, key, () -> JobFileParser.parse(file));
    }

    @FunctionalInterface
    private interface ThrowingParse {
        void run() throws Exception;
    }

    /**
     * A refused key is left out and the reading goes on: every refusal of the file, in file
     * order, the first as the exception (its file, line and key), its message counting the others;
     * a job refused as a whole (here its engine's key on another engine) is one refusal and the
     * next job is still read.
     */
    @Test
    void everyRefusalOfAFileIsReportedInFileOrder() throws Exception {
        Path file = write("[global]\nsoftrandommap=1\nsize=1m\n[a]\nfsync=2\nbogus_key=1\n[b]\nioengine=psync\nsqthread_poll=1\n"
                + "[c]\nrw=read\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(List.of("2 softrandommap", "5 fsync", "6 bogus_key", "9 sqthread_poll"),
                e.refusals().stream().map(r -> r.line() + " " + r.key()).toList());
        assertEquals(2, e.line());
        assertEquals("softrandommap", e.key());
        assertTrue(e.getMessage().startsWith(file + ":2: key 'softrandommap': fio option 'softrandommap' is not supported by the lab: "), e.getMessage());
        assertTrue(e.getMessage().endsWith(" (and 3 more refusal(s) in the file: `lab spec check` lists every one)"), e.getMessage());
        assertEquals(e.refusals().get(0).getMessage(), e.own());
        assertTrue(e.refusals().get(2).own().startsWith(file + ":6: key 'bogus_key': unknown key"), e.refusals().get(2).own());
        // one refusal alone is itself, its message as before
        Path one = write("[a]\nsize=1m\nfsync=2\n");
        JobSpecException o = assertThrows(JobSpecException.class, () -> JobFileParser.parse(one));
        assertEquals(List.of(o), o.refusals());
        assertFalse(o.getMessage().contains("more refusal"), o.getMessage());
    }

    /**
     * A predefined workload's option (tiobench's threads) in a job without profile= is accepted
     * with no effect, as fio 3.33 ignores it there (fio's examples/waitfor.fio); profile= itself is refused.
     */
    @Test
    void aProfilesOptionWithoutProfileIsAcceptedWithNoEffect() throws Exception {
        JobFile jf = JobFileParser.parse(write("[global]\nthreads=1\n[j]\nsize=1m\nrw=read\n"));
        assertEquals(1, jf.jobs().size());
        assertEquals(List.of("threads 2"), jf.notices().stream().map(n -> n.key() + " " + n.line()).toList());
        assertTrue(jf.notices().get(0).message().contains("ignores it in a job without one"), jf.notices().get(0).message());
        assertRefused("[j]\nsize=1m\nprofile=tiobench\n", 3, "profile");
    }

    /** A section header that cannot be read stops the reading there, after the refusals before it. */
    @Test
    void anUnreadableSectionHeaderStopsTheReading() throws Exception {
        Path file = write("[a]\nsize=1m\nfsync=2\n[b\nbogus_key=1\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(List.of("3 fsync", "4 [b"), e.refusals().stream().map(r -> r.line() + " " + r.key()).toList());
    }

    // ---- accepted ----------------------------------------------------------------------

    @Test
    void defaultsAreFios() throws Exception {
        Path file = write("[j]\nsize=1m\n");
        Job j = JobFileParser.parse(file).jobs().get(0);
        assertAll(
                () -> assertEquals("j", j.name()),
                () -> assertNull(j.filename()),
                () -> assertEquals(Rw.READ, j.rw()),
                () -> assertEquals(50, j.rwmixread()),
                () -> assertEquals(4096, j.bs()),
                () -> assertEquals(1 << 20, j.size()),
                () -> assertEquals(0, j.offset()),
                () -> assertEquals(1, j.numjobs()),
                () -> assertEquals(1, j.iodepth()),
                () -> assertEquals(1, j.iodepthBatchSubmit()),
                () -> assertEquals(1, j.iodepthBatchCompleteMin()),
                () -> assertEquals(0, j.runtimeNs()),
                () -> assertFalse(j.timeBased()),
                () -> assertEquals(0, j.rampTimeNs()),
                () -> assertFalse(j.direct()),
                () -> assertEquals(IoEngine.PSYNC, j.ioengine()),
                () -> assertFalse(j.zeroBuffers()),
                () -> assertTrue(j.scrambleBuffers()),
                () -> assertEquals(0, j.bufferCompressPercentage()),
                () -> assertFalse(j.refillBuffers()),
                () -> assertTrue(j.randrepeat()),
                () -> assertEquals(0x89, j.randseed()),
                () -> assertFalse(j.groupReporting()),
                () -> assertFalse(j.thread()),
                () -> assertFalse(j.fixedbufs()),
                () -> assertFalse(j.registerfiles()),
                () -> assertFalse(j.hipri()),
                () -> assertFalse(j.sqthreadPoll()),
                () -> assertEquals(Verify.NONE, j.verify()),
                () -> assertEquals(0, j.baseNs()),
                () -> assertEquals(file.toString(), j.source()),
                () -> assertEquals(1, j.line()));
    }

    @Test
    void everyKeyIsRead() throws Exception {
        Job j = only("""
                [sec]
                name=renamed
                filename=/dev/zram0
                rw=randrw
                rwmixread=70
                bs=8k
                size=64m
                offset=1m
                numjobs=3
                iodepth=16
                iodepth_batch_submit=4
                iodepth_batch_complete_min=2
                runtime=5
                time_based=1
                ramp_time=2
                direct=1
                ioengine=io_uring
                zero_buffers=1
                scramble_buffers=0
                buffer_compress_percentage=40
                refill_buffers=1
                randrepeat=0
                randseed=1234
                group_reporting=1
                thread=1
                fixedbufs=1
                registerfiles=1
                hipri=1
                sqthread_poll=1
                verify=crc32c
                do_verify=0
                verify_backlog=16
                verify_backlog_batch=4
                verify_interval=1k
                verify_fatal=1
                verify_async=2
                base_ns=2500
                """);
        assertAll(
                () -> assertEquals("renamed", j.name()),
                () -> assertEquals("/dev/zram0", j.filename()),
                () -> assertEquals(Rw.RANDRW, j.rw()),
                () -> assertEquals(70, j.rwmixread()),
                () -> assertEquals(8192, j.bs()),
                () -> assertEquals(64L << 20, j.size()),
                () -> assertEquals(1L << 20, j.offset()),
                () -> assertEquals(3, j.numjobs()),
                () -> assertEquals(16, j.iodepth()),
                () -> assertEquals(4, j.iodepthBatchSubmit()),
                () -> assertEquals(2, j.iodepthBatchCompleteMin()),
                () -> assertEquals(5 * SECOND_NS, j.runtimeNs()),
                () -> assertTrue(j.timeBased()),
                () -> assertEquals(2 * SECOND_NS, j.rampTimeNs()),
                () -> assertTrue(j.direct()),
                () -> assertEquals(IoEngine.IO_URING, j.ioengine()),
                () -> assertTrue(j.zeroBuffers()),
                () -> assertFalse(j.scrambleBuffers()),
                () -> assertEquals(40, j.bufferCompressPercentage()),
                () -> assertTrue(j.refillBuffers()),
                () -> assertFalse(j.randrepeat()),
                () -> assertEquals(1234, j.randseed()),
                () -> assertTrue(j.groupReporting()),
                () -> assertTrue(j.thread()),
                () -> assertTrue(j.fixedbufs()),
                () -> assertTrue(j.registerfiles()),
                () -> assertTrue(j.hipri()),
                () -> assertTrue(j.sqthreadPoll()),
                () -> assertEquals(Verify.CRC32C, j.verify()),
                () -> assertEquals(new Job.Checks(false, 16, 4, 1024, true, 2, false, 0), j.checks()),
                () -> assertEquals(2500, j.baseNs()));
    }

    /** base_ns is the lab's key: a plain count of ns from 0 to 10 ms, in [global] as in a job. */
    @Test
    void baseNsIsALabKeyInNanoseconds() throws Exception {
        assertEquals(0, job("base_ns=0").baseNs());
        assertEquals(10_000_000, job("base_ns=10000000").baseNs());
        assertEquals(2000, only("[global]\nbase_ns=2000\n[j]\nsize=1m\n").baseNs());
    }

    /** inject is the lab's key: STAGE:KIND[:COUNT] entries separated by commas, none when absent. */
    @Test
    void injectIsALabKeyOfContentionPoints() throws Exception {
        assertEquals(List.of(), job("rw=randrw").inject());
        List<Inject> two = job("inject=clone:cmpxchg, end_io:atomic:3").inject();
        assertEquals(List.of(new Inject(Inject.Stage.CLONE, Inject.Kind.CMPXCHG, 1),
                new Inject(Inject.Stage.END_IO, Inject.Kind.ATOMIC, 3)), two);
        assertEquals("clone:cmpxchg,end_io:atomic:3", Inject.format(two));
        assertEquals(List.of(new Inject(Inject.Stage.SUBMIT, Inject.Kind.RWSEM_READ, 1)),
                only("[global]\ninject=submit:rwsem-read\n[j]\nsize=1m\n").inject());
        assertEquals(List.of(), job("inject=none").inject());
    }

    /** A bad inject names file, line and key, and what it allows. */
    @Test
    void badInjectIsRefusedAtItsLine() throws Exception {
        for (String bad : List.of("inject=clone", "inject=clone:cas", "inject=queue:atomic", "inject=clone:atomic:0",
                "inject=clone:atomic:129", "inject=clone:atomic:x", "inject=clone:atomic,", "inject=a:b:c:d")) {
            assertRefused("[j]\nsize=1m\n" + bad + "\n", 3, "inject");
        }
        Path file = write("[j]\nsize=1m\ninject=clone:cas\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertTrue(e.getMessage().contains("atomic, cmpxchg, mutex, rwsem-read, percpu"), e.getMessage());
    }

    @Test
    void globalAppliesToLaterJobsOnly() throws Exception {
        List<Job> jobs = jobs("""
                [global]
                bs=8k
                iodepth=2
                [a]
                size=1m
                [b]
                size=1m
                iodepth=3
                [global]
                bs=16k
                [c]
                size=1m
                """);
        assertEquals(List.of(8192, 8192, 16384), jobs.stream().map(Job::bs).toList());
        assertEquals(List.of(2, 3, 2), jobs.stream().map(Job::iodepth).toList());
        assertEquals(List.of(4, 6, 11), jobs.stream().map(Job::line).toList());
    }

    @Test
    void duplicateJobNamesAreAllowed() throws Exception {
        List<Job> jobs = jobs("[same]\nsize=1m\n[same]\nsize=2m\n");
        assertEquals(List.of("same", "same"), jobs.stream().map(Job::name).toList());
        assertEquals(List.of(1L << 20, 2L << 20), jobs.stream().map(Job::size).toList());
    }

    @Test
    void commentsBlankLinesAndBlanksAreIgnored() throws Exception {
        Job j = only("""
                ; a comment
                # another

                  [ j ]   ; trailing comment
                size = 2m   # trailing comment
                \tbs\t=\t8k;no blank needed, as in fio
                rw=randread#
                """);
        assertEquals("j", j.name());
        assertEquals(2L << 20, j.size());
        assertEquals(8192, j.bs());
        assertEquals(Rw.RANDREAD, j.rw());
    }

    @Test
    void crlfLineEndingsAndByteOrderMarkAreAccepted() throws Exception {
        Job j = only("\uFEFF[j]\r\nsize=1m\r\nbs=8k\r\n");
        assertEquals(8192, j.bs());
        assertEquals(1L << 20, j.size());
    }

    @Test
    void bareFlagsMeanOne() throws Exception {
        Job j = job("""
                time_based
                group_reporting
                thread
                zero_buffers
                refill_buffers
                fixedbufs
                registerfiles
                hipri
                sqthread_poll
                ioengine=io_uring
                direct
                randrepeat
                scramble_buffers""");
        assertTrue(j.timeBased() && j.groupReporting() && j.thread() && j.zeroBuffers() && j.refillBuffers()
                && j.fixedbufs() && j.registerfiles() && j.hipri() && j.sqthreadPoll() && j.direct()
                && j.randrepeat() && j.scrambleBuffers());
    }

    @Test
    void flagsTakeZero() throws Exception {
        Job j = job("time_based=0\ndirect=0\nscramble_buffers=0\ngroup_reporting=0");
        assertFalse(j.timeBased() || j.direct() || j.scrambleBuffers() || j.groupReporting());
    }

    @ParameterizedTest(name = "size={0}")
    @CsvSource({
            "512, 512",
            "4k, 4096",
            "4K, 4096",
            "4kb, 4096",
            "4KB, 4096",
            "3m, 3145728",
            "3M, 3145728",
            "3MB, 3145728",
            "2g, 2147483648",
            "2G, 2147483648",
            "1t, 1099511627776",
            "1p, 1125899906842624",
            "4KiB, 4000",
            "3MiB, 3000000",
            "2GiB, 2000000000",
            "1TiB, 1000000000000",
            "0x1000, 4096",
    })
    void sizeSuffixesAreFiosWithKbBase1024(String text, long bytes) throws Exception {
        assertEquals(bytes, only("[j]\nbs=512\nsize=" + text + "\n").size());
    }

    @ParameterizedTest(name = "runtime={0}")
    @CsvSource({
            "10, 10000000000",
            "2s, 2000000000",
            "500ms, 500000000",
            "500msec, 500000000",
            "20us, 20000",
            "20usec, 20000",
            "2m, 120000000000",
            "1h, 3600000000000",
            "1d, 86400000000000",
            "0, 0",
    })
    void timeSuffixesAreFiosWithSecondsByDefault(String text, long ns) throws Exception {
        Job j = job("runtime=" + text + "\nramp_time=" + text);
        assertEquals(ns, j.runtimeNs());
        assertEquals(ns, j.rampTimeNs());
    }

    @ParameterizedTest(name = "rw={0}")
    @CsvSource({"read, READ", "write, WRITE", "randread, RANDREAD", "randwrite, RANDWRITE", "randrw, RANDRW",
            "readwrite, READWRITE", "rw, READWRITE"})
    void rwModes(String text, Rw rw) throws Exception {
        assertEquals(rw, job("rw=" + text).rw());
    }

    @Test
    void aliases() throws Exception {
        Job j = job("readwrite=randwrite\nblocksize=16k\niodepth=8\niodepth_batch=4");
        assertEquals(Rw.RANDWRITE, j.rw());
        assertEquals(16384, j.bs());
        assertEquals(4, j.iodepthBatchSubmit());
    }

    @Test
    void rwmixwriteSetsRwmixreadToTheRest() throws Exception {
        assertEquals(70, job("rwmixwrite=30").rwmixread());
        assertEquals(40, job("rwmixwrite=30\nrwmixread=40").rwmixread(), "the last one written wins, as in fio");
    }

    @ParameterizedTest(name = "verify={0}")
    @CsvSource({"none, NONE", "0, NONE", "crc32c, CRC32C", "crc32c-intel, CRC32C", "crc32, CRC32", "md5, MD5",
        "sha1, SHA1", "sha256, SHA256", "meta, META"})
    void verifyValues(String text, Verify verify) throws Exception {
        assertEquals(verify, job("verify=" + text).verify());
    }

    /**
     * fio's {@code fixup_options()}: a header every {@code verify_interval} bytes, capped at the
     * smallest write, the gcd of the smallest and largest write when unset or not a factor of both.
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "bs=4k | 4096", "bs=64k~verify_interval=512 | 512", "bs=4k~verify_interval=8k | 4096",
        "bsrange=4k-16k | 4096", "bsrange=4k-16k~verify_interval=1k | 1024", "bssplit=8k/50:12k/50 | 4096",
        "bs=16k~verify_interval=3k | 16384"})
    void verifyIntervalIsFiosPieceSize(String options, int interval) throws Exception {
        assertEquals(interval, job("rw=write\nverify=crc32c\n" + options.replace('~', '\n')).verifyInterval());
    }

    /**
     * continue_on_error and ignore_error as fio's td_non_fatal_error(): a class on and the error in
     * its list (EIO and EILSEQ by default); a list turns its class on; EILSEQ is the verify class
     * whatever the direction.
     */
    @Test
    void continueOnErrorAndIgnoreErrorDecideWhichErrorsAreNotFatal() throws Exception {
        Job.OnError none = job("rw=write").onError();
        assertFalse(none.nonFatal(false, 5));
        Job.OnError write = job("rw=write\ncontinue_on_error=write").onError();
        assertTrue(write.nonFatal(false, 5), "EIO: in the default list");
        assertFalse(write.nonFatal(false, 28), "ENOSPC: not in it");
        assertFalse(write.nonFatal(true, 5), "reads: not on");
        assertFalse(write.nonFatal(false, 84), "EILSEQ is the verify class");
        Job.OnError listed = job("rw=write\nignore_error=,ENOSPC:-122").onError();
        assertEquals(new Job.OnError(Job.OnError.WRITE, List.of(), List.of(28, 122), List.of()), listed);
        assertTrue(listed.nonFatal(false, 122));
        assertFalse(listed.nonFatal(false, 5), "the list replaces the default");
        Job.OnError all = job("rw=randrw\ncontinue_on_error=1").onError();
        assertTrue(all.nonFatal(true, 5) && all.nonFatal(false, 84) && !all.nonFatal(true, 28));
        assertEquals(Job.OnError.READ | Job.OnError.WRITE, job("continue_on_error=io").onError().classes());
    }

    /** cmdprio_bssplit's two forms, per direction, the short one with cmdprio_class and cmdprio. */
    @Test
    void cmdprioBssplitTakesFiosTwoForms() throws Exception {
        Job.Placement p = job("ioengine=io_uring\nrw=randrw\ncmdprio_class=2\ncmdprio=3\n"
                + "cmdprio_bssplit=4k/100:16k/25/1/1,16k/0").placement();
        assertEquals(List.of(new Job.PrioSplit(4096, 100, 2, 3), new Job.PrioSplit(16384, 25, 1, 1)), p.cmdprioSplit(true));
        assertEquals(List.of(new Job.PrioSplit(16384, 0, 2, 3)), p.cmdprioSplit(false));
        TestJobs.assertRefused("[j]\nsize=1m\nioengine=io_uring\ncmdprio_percentage=5\ncmdprio_bssplit=4k/10\n", 5,
                "cmdprio_bssplit", "mutually exclusive");
        TestJobs.assertRefused("[j]\nsize=1m\nioengine=io_uring\ncmdprio_bssplit=4k/60:4k/50/1/1\n", 4,
                "cmdprio_bssplit", "sum past 100");
        TestJobs.assertRefused("[j]\nsize=1m\ncmdprio_bssplit=4k/10\n", 3, "cmdprio_bssplit", "io_uring and libaio");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "continue_on_error=sometimes | continue_on_error | not one of none, read, write, io, verify, all, 0, 1",
        "ignore_error=ENOWHERE | ignore_error | unknown error 'ENOWHERE'",
        "ignore_error=5,5,5,5 | ignore_error | more than three parts",
        "fallocate=native | fallocate | the lab's files are sparse"})
    void errorAndLayoutOptionsTheLabCannotRunAreRefused(String line, String key, String message) {
        TestJobs.assertRefused("[j]\nsize=1m\n" + line + "\n", 3, key, message);
    }

    @Test
    void batchSubmitIsClampedToIodepthAndZeroMeansIodepth() throws Exception {
        assertEquals(4, job("iodepth=4\niodepth_batch_submit=64").iodepthBatchSubmit());
        assertEquals(8, job("iodepth=8\niodepth_batch_submit=0").iodepthBatchSubmit());
        assertEquals(0, job("iodepth_batch_complete_min=0").iodepthBatchCompleteMin());
    }

    @Test
    void randseedTakesHexAndUnsigned64Bits() throws Exception {
        assertEquals(0x10, job("randseed=0x10").randseed());
        assertEquals(-1L, job("randseed=18446744073709551615").randseed());
    }

    @Test
    void norandrepeatWithoutSeedDrawsOneSeedPerParse() throws Exception {
        long a = job("randrepeat=0").randseed();
        long b = job("randrepeat=0").randseed();
        assertNotEquals(a, b);
        assertEquals(77, job("randrepeat=0\nrandseed=77").randseed(), "an explicit seed is kept");
    }

    @Test
    void everyExampleParses() throws Exception {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(root.resolve("examples"))) {
            root = root.getParent();
            assertTrue(root != null, "no examples/ above " + Path.of("").toAbsolutePath());
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(root.resolve("examples"))) {
            files = s.filter(p -> p.toString().endsWith(".fio")).sorted().toList();
        }
        assertTrue(files.size() >= 8, "examples: " + files);
        for (Path f : files) {
            JobFile jf = JobFileParser.parse(f);
            assertFalse(jf.jobs().isEmpty(), f.toString());
        }
    }

    // ---- refused -----------------------------------------------------------------------

    /** Whole job files refused at a given line and key; the first column names the case. */
    static Stream<Arguments> refusedFiles() {
        return Stream.of(
                Arguments.of("sizeBelowBsIsReportedAtSizeWhenSizeCameLast", "[j]\nbs=8k\nsize=4k\n", 3, "size"),
                Arguments.of("sizeBelowBsIsReportedAtBsWhenBsCameLast", "[j]\nsize=4k\nbs=8k\n", 3, "bs"),
                Arguments.of("sizeBelowBsAcrossGlobalIsReportedAtTheJobsLine", "[global]\nsize=4k\n[j]\nbs=8k\n", 4, "bs"),
                Arguments.of("sizeBelowDefaultBsIsReportedAtSize", "[j]\nsize=1k\n", 2, "size"),
                Arguments.of("offsetPlusSizeOverflowIsReportedAtTheLaterKey", "[j]\nsize=4p\noffset=8191p\n", 3, "offset"),
                Arguments.of("settingBeforeAnySection", "; comment\nsize=1m\n[j]\n", 2, "size"),
                Arguments.of("emptySectionName", "[]\nsize=1m\n", 1, "[]"),
                Arguments.of("blankSectionName", "[global]\n[   ]\nsize=1m\n", 2, "[   ]"),
                Arguments.of("unclosedSectionHeader", "[j\nsize=1m\n", 1, "[j"),
                Arguments.of("emptyFile", "", 0, null),
                Arguments.of("onlyCommentsAndGlobal", "; nothing\n[global]\nbs=4k\n# to run\n", 0, null),
                Arguments.of("batchCompleteMinAboveIodepth", "[j]\nsize=1m\niodepth=4\niodepth_batch_complete_min=8\n", 4, "iodepth_batch_complete_min"),
                Arguments.of("iodepthBelowBatchCompleteMinIsReportedAtIodepthWhenLast", "[j]\nsize=1m\niodepth_batch_complete_min=8\niodepth=4\n", 4, "iodepth"),
                Arguments.of("errorInASecondJobNamesItsLine", "[a]\nsize=1m\n[b]\nsize=1m\nrw=up\n", 5, "rw"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedFiles")
    void refusedFile(String name, String text, int line, String key) throws Exception {
        assertRefused(text, line, key);
    }

    /** One bad line after {@code [j]} and {@code size=1m}: refused at line 3, under the key as written. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "exit_what=none | exit_what",
            "flow=1001 | flow",
            "prioclass=4 | prioclass",
            "ss=iops | ss",
            "steadystate=flat:1% | steadystate",
            "ss=bw:fast | ss",
            "ss_dur=500ms | ss_dur",
            "prio=8 | prio",
            "numa_cpu_nodes=1-0 | numa_cpu_nodes",
            "numa_mem_policy=bind | numa_mem_policy",
            "numa_mem_policy=prefer:0-1 | numa_mem_policy",
            "numa_mem_policy=local:0 | numa_mem_policy",
            "numa_mem_policy=spread:0 | numa_mem_policy",
            "cmdprio_percentage=20 | cmdprio_percentage",
            "Size=2m | Size",
            "bs=0 | bs",
            "bs=3g | bs",
            "bs=4q | bs",
            "bs=17m | bs",
            "bs=-4k | bs",
            "bs=k | bs",
            "bs=99999999999999999999 | bs",
            "blocksize=0 | blocksize",
            "bs | bs",
            "filename= | filename",
            "=4k | =",
            "rw=sideways | rw",
            "rw=randread:0 | rw",
            "rw=randread:x | rw",
            "rw=read:abc | rw",
            "loops=-1 | loops",
            "rate_process=bursty | rate_process",
            "io_submit_mode=async | io_submit_mode",
            "thinktime_blocks_type=both | thinktime_blocks_type",
            "startdelay=5-2 | startdelay",
            "rate=1m,2m,3m,4m | rate",
            "blockalign=0 | blockalign",
            "ba=4k,8k,4k,4k | ba",
            "random_distribution=zipf:1 | random_distribution",
            "random_distribution=pareto:1.5 | random_distribution",
            "random_distribution=normal:100 | random_distribution",
            "random_distribution=zipf:1.2:2 | random_distribution",
            "random_distribution=zoned:50/5:30/15 | random_distribution",
            "random_distribution=zoned:60/50:40/60 | random_distribution",
            "random_distribution=zoned:50/5,50/5 | random_distribution",
            "random_distribution=cauchy | random_distribution",
            "random_distribution=zoned:50/50:50/50 | random_distribution",
            "numjobs=-1 | numjobs",
            "numjobs=0 | numjobs",
            "numjobs=1e9 | numjobs",
            "numjobs=5000 | numjobs",
            "numjobs=1k | numjobs",
            "numjobs=99999999999999999999 | numjobs",
            "rwmixread=150 | rwmixread",
            "rwmixwrite=101 | rwmixwrite",
            "iodepth=0 | iodepth",
            "iodepth=70000 | iodepth",
            "iodepth=x | iodepth",
            "buffer_compress_percentage=101 | buffer_compress_percentage",
            "direct=2 | direct",
            "direct=true | direct",
            "time_based=yes | time_based",
            "ioengine=windowsaio | ioengine",
            "ioengine=posixaio | ioengine",
            "userspace_reap=1 | userspace_reap",
            "iodepth_batch_complete_max=-1 | iodepth_batch_complete_max",
            "verify=crc64 | verify",
            "runtime=10sec | runtime",
            "runtime=1min | runtime",
            "runtime=1hr | runtime",
            "ramp_time=-1 | ramp_time",
            "runtime=10x | runtime",
            "randseed=12ab | randseed",
            "randseed=99999999999999999999 | randseed",
            "bs=0x1000k | bs",
            "runtime=0x10 | runtime",
            "ramp_time=0x2s | ramp_time",
            "fixedbufs=1 | fixedbufs",
            "registerfiles=0 | registerfiles",
            "hipri | hipri",
            "sqthread_poll=1 | sqthread_poll",
            "base_ns=-1 | base_ns",
            "base_ns=10000001 | base_ns",
            "base_ns=2us | base_ns",
            "base_ns | base_ns",
    })
    void refusedLine(String line, String key) throws Exception {
        assertRefused("[j]\nsize=1m\n" + line + "\n", 3, key);
    }

    /** Two lines that conflict, as fio's fixup_options() refuses them: at the second line, under its key. */
    @ParameterizedTest(name = "{0} then {1}")
    @CsvSource(delimiter = '|', value = {
            "rate_iops=100 | rate=1m | rate",
            "rate_min=1m | rate_iops_min=10 | rate_iops_min",
            "rate_iops=100 | rate_iops_min=1000 | rate_iops_min",
            "rate=1m | ratemin=2m | ratemin",
            "thinktime=1ms | thinktime_spin=2ms | thinktime_spin",
            "verify=crc32c | verify_offset=16 | verify_offset",
            "verify=md5 | verify_offset=4090 | verify_offset",
    })
    void conflictingLines(String first, String second, String key) throws Exception {
        assertRefused("[j]\nsize=1m\n" + first + "\n" + second + "\n", 4, key);
    }

    @ParameterizedTest(name = "size={0}")
    @CsvSource({"99999999999999999999", "8192p", "0"})
    void sizeOutOfRange(String value) throws Exception {
        assertRefused("[j]\nbs=512\nsize=" + value + "\n", 3, "size");
    }

    /** fio 3.33 reads 0x1000k as 4096 (the unit after hex digits is ignored): the lab refuses, naming that. */
    @Test
    void unitAfterHexDigitsIsRefusedNamingFiosReading() throws Exception {
        Path file = write("[j]\nsize=0x1000k\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertTrue(e.getMessage().contains("reads '0x1000k' as 4096 bytes") && e.getMessage().contains("write 0x1000"),
                e.getMessage());
    }

    /** fio's io_uring options are refused in a psync job, at the line that set them, even in [global]. */
    @Test
    void ioUringOptionInAPsyncJobIsRefusedAtItsLine() throws Exception {
        Path file = write("[global]\nfixedbufs=1\nsize=1m\n[j]\nioengine=psync\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(2, e.line());
        assertEquals("fixedbufs", e.key());
        assertTrue(e.getMessage().contains("ioengine=io_uring") && e.getMessage().contains("psync"), e.getMessage());
        assertTrue(only("[global]\nfixedbufs=1\nsize=1m\n[j]\nioengine=io_uring\n").fixedbufs());
    }

    /** Each engine name fio gives the lab's engines parses to that engine, and only the sync ones cap the depth. */
    @ParameterizedTest(name = "ioengine={0}")
    @CsvSource({"psync, PSYNC, 1", "sync, SYNC, 1", "pvsync, PVSYNC, 1", "io_uring, IO_URING, 16", "libaio, LIBAIO, 16"})
    void everyEngineTheLabRunsParses(String name, IoEngine engine, int depth) throws Exception {
        Job j = job("ioengine=" + name + "\niodepth=16");
        assertEquals(engine, j.ioengine());
        assertEquals(name, j.ioengine().fioName());
        assertEquals(depth, j.queueDepth());
    }

    /** libaio's userspace_reap is refused in an io_uring job, and accepted in a libaio one. */
    @Test
    void libaioOptionInAnIoUringJobIsRefused() throws Exception {
        Path file = write("[j]\nsize=1m\nioengine=io_uring\nuserspace_reap\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(4, e.line());
        assertTrue(e.getMessage().contains("ioengine=libaio"), e.getMessage());
        assertTrue(only("[j]\nsize=1m\nioengine=libaio\nuserspace_reap\n").userspaceReap());
    }

    /** iodepth_batch_complete_max: the min by default and for 0, never below the min, within the depth (fio 3.33's fixup). */
    @Test
    void completeMaxDefaultsToTheMinAndNeverFallsBelowIt() throws Exception {
        assertEquals(1, job("ioengine=libaio\niodepth=32").completeMax());
        assertEquals(1, job("ioengine=libaio\niodepth=32\niodepth_batch_complete_max=0").completeMax());
        assertEquals(4, job("ioengine=libaio\niodepth=32\niodepth_batch_complete_min=4").completeMax());
        assertEquals(32, job("ioengine=libaio\niodepth=32\niodepth_batch_complete_max=64").completeMax());
        assertEquals(8, job("ioengine=libaio\niodepth=32\niodepth_batch_complete_max=8").completeMax());
        assertEquals(4, job("ioengine=libaio\niodepth=32\niodepth_batch_complete_min=4\niodepth_batch_complete_max=2")
                .completeMax());
        assertEquals(1, job("ioengine=sync\niodepth=32").completeMax());
    }

    /** psync keeps one I/O in flight whatever iodepth says (fio caps sync engines at 1); io_uring keeps iodepth. */
    @Test
    void synchronousEngineCapsTheQueueDepthAtOne() throws Exception {
        Job p = job("iodepth=16\niodepth_batch_submit=8\niodepth_batch_complete_min=4");
        assertAll(
                () -> assertEquals(16, p.iodepth(), "the value written is kept, as fio's JSON does"),
                () -> assertEquals(1, p.queueDepth()),
                () -> assertEquals(1, p.submitBatch()),
                () -> assertEquals(1, p.completeMin()));
        Job u = job("ioengine=io_uring\niodepth=16\niodepth_batch_submit=8\niodepth_batch_complete_min=4");
        assertAll(
                () -> assertEquals(16, u.queueDepth()),
                () -> assertEquals(8, u.submitBatch()),
                () -> assertEquals(4, u.completeMin()));
    }

    @Test
    void percentSizeIsRefused() throws Exception {
        Path file = write("[j]\nsize=50%\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(2, e.line());
        assertEquals("size", e.key());
        assertTrue(e.getMessage().contains("percentage sizes are not supported"), e.getMessage());
    }

    @Test
    void nulByteIsNotText() throws Exception {
        Path file = write("[j]\nsize=1m\u0000\n".getBytes(StandardCharsets.UTF_8));
        assertRefused(file, 2, "-", () -> JobFileParser.parse(file));
    }

    @Test
    void invalidUtf8IsNotText() throws Exception {
        byte[] head = "[j]\nsize=1m\nname=".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[head.length + 3];
        System.arraycopy(head, 0, bytes, 0, head.length);
        bytes[head.length] = (byte) 0xC3;
        bytes[head.length + 1] = (byte) 0x28;
        bytes[head.length + 2] = '\n';
        Path file = write(bytes);
        assertRefused(file, 3, "-", () -> JobFileParser.parse(file));
    }

    @Test
    void missingFile() {
        Path file = dir.resolve("absent.fio");
        assertRefused(file, 0, null, () -> JobFileParser.parse(file));
    }

    @Test
    void unreadableFile() {
        assertRefused(dir, 0, null, () -> JobFileParser.parse(dir));
    }

    // ---- options of fio's the lab does not implement ----------------------------------

    private static String reason(String key) {
        return OptionTable.find(key).orElseThrow().reason();
    }

    /** An option with no effect is accepted, value unread, with a notice at its line, [global] included. */
    @Test
    void anOptionWithNoEffectIsAcceptedWithANoticeAtItsLine() throws Exception {
        Path file = write("[global]\ndescription=a job = described ; comment\n[j]\nsize=1m\ndisable_lat\n");
        JobFile jf = JobFileParser.parse(file);
        assertEquals(1, jf.jobs().size());
        assertEquals(List.of(new Notice(file, 2, "description", reason("description")),
                new Notice(file, 5, "disable_lat", reason("disable_lat"))), jf.notices());
        assertEquals(file + ":2: key 'description': accepted, no effect here (" + reason("description") + ")",
                jf.notices().get(0).message());
        assertEquals(List.of(), JobFileParser.parse(write("[j]\nsize=1m\n")).notices());
    }

    @Test
    void aJobWithNoEffectOptionsIsTheJobWithout() throws Exception {
        Job plain = job("rw=randread\n;");
        Job logged = job("rw=randread\nwrite_lat_log=lat");
        assertEquals(plain, logged);
    }

    @Test
    void aRefusedOptionNamesFileLineKeyAndReason() throws Exception {
        Path file = write("[j]\nsize=1m\nzonemode=zbd\n");
        assertRefused(file, 3, "zonemode", () -> JobFileParser.parse(file));
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(file + ":3: key 'zonemode': fio option 'zonemode' is not supported by the lab: " + reason("zonemode"),
                e.getMessage());
    }

    /** An alias is refused under the spelling written; a refused key in [global] at its own line. */
    @Test
    void aRefusedAliasIsNamedAsWritten() throws Exception {
        Path file = write("[global]\nblocksize_unaligned=1\n[j]\nsize=1m\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(2, e.line());
        assertEquals("blocksize_unaligned", e.key());
        assertTrue(e.getMessage().endsWith("fio option 'blocksize_unaligned' is not supported by the lab: "
                + reason("bs_unaligned")), e.getMessage());
    }

    @Test
    void aMisspelledKeyGetsTheNearestKnownOne() throws Exception {
        Path file = write("[j]\nsize=1m\nnorandomap\n");
        assertRefused(file, 3, "norandomap", () -> JobFileParser.parse(file));
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertTrue(e.getMessage().endsWith(
                ": unknown key (not an option of fio 3.33); did you mean 'norandommap'?"), e.getMessage());
    }

    @Test
    void aKeyFarFromEveryKnownOneGetsNoSuggestion() throws Exception {
        Path file = write("[j]\nsize=1m\nfrobnicate_everything=1\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(file + ":3: key 'frobnicate_everything': unknown key (not an option of fio 3.33)", e.getMessage());
    }

    /** fio's aliases of implemented options are read as the options they stand for. */
    @Test
    void aliasesOfImplementedOptionsAreTheOptions() throws Exception {
        assertEquals(job("iodepth=8\nioengine=io_uring\niodepth_batch_complete_min=4").completeMin(),
                job("iodepth=8\nioengine=io_uring\niodepth_batch_complete=4").completeMin());
        assertEquals(job("runtime=5").runtimeNs(), job("timeout=5").runtimeNs());
        assertEquals(job("offset=4k").offset(), job("fileoffset=4k").offset());
    }
}
