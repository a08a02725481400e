package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import lab.jobspec.stats.JobWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The options of where, how big and how many: norandommap, random_generator, allrandrepeat,
 * percentage_random, bsrange, bssplit, io_size and number_ios: their parsing, their refusals
 * (file, line and key), and the sequence they give. fio itself is the reference in
 * {@link FioContractTest}.
 */
class SizeOptionsTest {
    @TempDir
    Path dir;

    private Job job(String lines) throws Exception {
        return TestJobs.job(dir, lines);
    }

    /** Every I/O {@code job}'s clone 0 issues, as the clone loops walk it: {offset, length, read?1:0}. */
    private static List<long[]> issued(Job job) {
        IoSequence seq = IoSequence.forJob(job, 0);
        JobWindow window = new JobWindow(job, System.nanoTime());
        List<long[]> out = new java.util.ArrayList<>();
        while (window.nextInPass(seq)) {
            boolean read = seq.nextIsRead();
            out.add(new long[] {seq.offset(), seq.length(), read ? 1 : 0});
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "bssplit=4k/120|bssplit|out of range [0, 100]",
        "bssplit=4k/60:8k/60|bssplit|add to 120%",
        "bssplit=4k/60:8k/30|bssplit|add to 90%, not 100",
        "bssplit=4k/50::8k/50|bssplit|empty entry",
        "bssplit=4q/100|bssplit|unknown size suffix",
        "bssplit=32m/100|bssplit|out of range [1, 16777216]",
        "bsrange=4k|bsrange|not a range",
        "bsrange=4k-8k,,1k-2k|bsrange|not a range",
        "bsrange=4k-8k,1k-2k,1k-2k,1k-2k|bsrange|more than three parts",
        "percentage_random=101|percentage_random|out of range [0, 100]",
        "percentage_random=50,x|percentage_random|not a whole number",
        "random_generator=mt19937|random_generator|tausworthe, lfsr, tausworthe64",
        "norandommap=2|norandommap|not 0 or 1",
        "allrandrepeat|allrandrepeat|needs a value",
        "io_size=-1|io_size|must not be negative",
        "number_ios=lots|number_ios|not a number",
        "bs=4k,32m|bs|out of range [1, 16777216]",
    })
    void badValuesNameFileLineAndKey(String line, String key, String problem) throws Exception {
        Path file = Files.writeString(dir.resolve("bad.fio"), "[j]\nrw=randrw\nsize=1m\n" + line + "\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(4, e.line(), e.getMessage());
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
        assertTrue(e.getMessage().startsWith(file + ":4: key '" + key + "'"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "rw=randrw~bsrange=4k-8k~bssplit=4k/100|bssplit|bsrange and bssplit both set",
        "rw=randrw~bssplit=512,4k~size=2t|size|would exceed 2147483648 bits; set norandommap",
        "rw=read~size=4k~bsrange=8k-16k|bsrange|smaller than the smallest block size",
        "rw=write~verify=crc32c~verify_offset=1024~verify_interval=1024|verify_interval|ends past the 1024-byte piece",
        "rw=write~verify=sha256~verify_offset=32|verify_offset|at least 64 bytes, the lab's header for verify=sha256",
    })
    void combinationsTheLabCannotRunAsFioAreRefused(String lines, String key, String problem) throws Exception {
        Path file = Files.writeString(dir.resolve("bad.fio"), "[j]\nsize=1m\n" + lines.replace("~", "\n") + "\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
    }

    @Test
    void bsTakesReadWriteAsFio() throws Exception {
        Job j = job("rw=randrw\nsize=1m\nbs=8k,32k");
        assertEquals(BlockSizes.fixed(8192), j.readBs());
        assertEquals(BlockSizes.fixed(32768), j.writeBs());
        assertEquals(BlockSizes.fixed(4096), job("rw=randrw\nsize=1m\nbs=,32k").readBs(), "an empty part: fio's 4k");
        assertEquals(BlockSizes.fixed(4096), job("rw=randrw\nsize=1m\nbs=8k,").writeBs(), "8k, leaves writes at 4k");
        assertEquals("8192,32768", lab.jobspec.report.FioOptions.of(j).get("bs"), "echoed as both");
    }

    @Test
    void blockalignOtherThanTheSmallestSizeTurnsOffTheRandomMapAsFio() throws Exception {
        assertTrue(job("rw=randread\nsize=1m\nbs=4k\nblockalign=8k").norandommap());
        assertTrue(job("rw=randrw\nsize=1m\nbs=4k\nblockalign=4k,8k").norandommap());
        assertFalse(job("rw=randread\nsize=1m\nbs=4k\nblockalign=4k").norandommap(), "the smallest size: map kept");
        assertFalse(job("rw=read\nsize=1m\nbs=4k\nblockalign=8k").norandommap(), "sequential: fio ignores ba");
    }

    @Test
    void bsrangeIsSwappedWhenReversedAndTakesReadWriteParts() throws Exception {
        Job j = job("rw=randrw\nnorandommap\nsize=1m\nblocksize_range=32k-4k,1k:2k");
        assertEquals(new BlockSizes(4096, 32768, List.of()), j.readBs());
        assertEquals(new BlockSizes(1024, 2048, List.of()), j.writeBs());
        assertEquals(1024, j.minBs());
        assertEquals(32768, j.maxBs());
        assertEquals(4096, j.bs(), "bs keeps its own value");
    }

    @Test
    void bssplitBlankSharesTakeTheRestInFiosOrder() throws Exception {
        Job j = job("rw=read\nsize=1m\nbssplit=4k/50:1k/:32k/");
        assertEquals(List.of(new BlockSizes.Split(1024, 25), new BlockSizes.Split(32768, 25),
                new BlockSizes.Split(4096, 50)), j.readBs().split());
        assertEquals(1024, j.readBs().min());
        assertEquals(32768, j.readBs().max());
        Job three = job("rw=read\nsize=1m\nbssplit=4k/:8k/:16k/");
        assertEquals(List.of(33, 33, 33), three.readBs().split().stream().map(BlockSizes.Split::percent).toList());
        Job rw = job("rw=rw\nsize=1m\nbssplit=2k/50:4k/50,4k/90:8k/10");
        assertEquals(2048, rw.readBs().min());
        assertEquals(List.of(new BlockSizes.Split(8192, 10), new BlockSizes.Split(4096, 90)), rw.writeBs().split());
        Job writesOnly = job("rw=write\nbs=8k\nsize=1m\nbssplit=,64k/100");
        assertEquals(BlockSizes.fixed(8192), writesOnly.readBs(), "an empty part keeps bs");
        assertEquals(65536, writesOnly.maxBs());
    }

    @Test
    void theReportEchoesTheNewOptions() throws Exception {
        var m = lab.jobspec.report.FioOptions.of(job("rw=readwrite\nsize=1m\nnorandommap\nbssplit=4k/25:8k/75,16k"
                + "\npercentage_random=50,20\nrandom_generator=lfsr\nio_limit=3m\nnumber_ios=9\nallrandrepeat=1"));
        assertEquals("4096/25:8192/75,16384", m.get("bssplit"));
        assertEquals("50,20", m.get("percentage_random"));
        assertEquals("1", m.get("norandommap"));
        assertEquals("lfsr", m.get("random_generator"));
        assertEquals("3145728", m.get("io_size"));
        assertEquals("9", m.get("number_ios"));
        assertEquals("1", m.get("allrandrepeat"));
        assertEquals("4096-32768", lab.jobspec.report.FioOptions.of(job("rw=read\nsize=1m\nbsrange=4k-32k"))
                .get("bsrange"));
        assertFalse(lab.jobspec.report.FioOptions.of(job("rw=read\nsize=1m")).containsKey("bsrange"));
    }

    @Test
    void percentageRandomTakesOneValueOrAPair() throws Exception {
        Job one = job("rw=randrw\nsize=1m\npercentage_random=40");
        assertEquals(40, one.percentageRandomRead());
        assertEquals(40, one.percentageRandomWrite());
        Job pair = job("rw=randrw\nsize=1m\npercentage_random=50,20");
        assertEquals(50, pair.percentageRandomRead());
        assertEquals(20, pair.percentageRandomWrite());
    }

    @Test
    void allrandrepeatSeedsFromTheDefaultWhateverRandseedSays() throws Exception {
        assertEquals(0x89, job("rw=randread\nsize=1m\nrandseed=7\nallrandrepeat=1").randseed());
        assertEquals(0x89, job("rw=randread\nsize=1m\nrandrepeat=0\nallrandrepeat=1").randseed());
        assertEquals(7, job("rw=randread\nsize=1m\nrandseed=7\nallrandrepeat=0").randseed());
    }

    @Test
    void randomGeneratorsAllGiveEveryBlockOncePerPassWithOneSize() throws Exception {
        for (String g : List.of("tausworthe", "lfsr", "tausworthe64")) {
            List<long[]> io = issued(job("rw=randread\nbs=4k\nsize=1m\nrandom_generator=" + g));
            assertEquals(256, io.size(), g);
            assertEquals(256, io.stream().map(x -> x[0]).distinct().count(), g + ": every block once");
        }
    }

    @Test
    void norandommapLetsBlocksRepeat() throws Exception {
        List<long[]> io = issued(job("rw=randread\nbs=4k\nsize=4m\nnorandommap"));
        assertEquals(1024, io.size());
        long distinct = io.stream().map(x -> x[0]).distinct().count();
        // 1024 uniform draws of 1024 blocks: 1024 * (1 - 1/e) = 647 distinct expected, sd about 9
        assertTrue(distinct > 600 && distinct < 700, "distinct blocks: " + distinct);
        assertTrue(io.stream().allMatch(x -> x[0] % 4096 == 0 && x[0] + x[1] <= 4 << 20));
    }

    @Test
    void mixedSizesWithTheRandomMapDoEveryByteOnce() throws Exception {
        List<long[]> io = issued(job("rw=randwrite\noffset=64k\nsize=1m\nbsrange=4k-32k"));
        boolean[] done = new boolean[256];
        long bytes = 0;
        for (long[] x : io) {
            assertEquals(0, (x[0] - 65536) % 4096, "aligned to the smallest size");
            assertEquals(0, x[1] % 4096, "a multiple of the smallest size");
            assertTrue(x[1] >= 4096 && x[1] <= 32768);
            for (long b = (x[0] - 65536) / 4096; b < (x[0] - 65536 + x[1]) / 4096; b++) {
                assertFalse(done[(int) b], "block " + b + " twice");
                done[(int) b] = true;
            }
            bytes += x[1];
        }
        assertEquals(1 << 20, bytes);
    }

    @Test
    void bssplitSharesShowInTheSizesIssued() throws Exception {
        List<long[]> io = issued(job("rw=write\nsize=64m\nbssplit=4k/20:16k/80"));
        long small = io.stream().filter(x -> x[1] == 4096).count();
        long large = io.stream().filter(x -> x[1] == 16384).count();
        assertEquals(io.size(), small + large);
        assertEquals(0.2, small / (double) io.size(), 0.02);
        long pos = 0;
        for (long[] x : io) {
            assertEquals(pos, x[0], "sequential: each I/O where the last ended");
            pos += x[1];
        }
        assertEquals(64 << 20, pos);
    }

    @Test
    void percentageRandomZeroIsSequentialAndFiftyMixes() throws Exception {
        List<long[]> seq = issued(job("rw=randread\nbs=4k\nsize=1m\npercentage_random=0"));
        for (int i = 0; i < seq.size(); i++) {
            assertEquals(4096L * i, seq.get(i)[0]);
        }
        List<long[]> half = issued(job("rw=randread\nbs=4k\nsize=4m\npercentage_random=50"));
        int follows = 0;
        for (int i = 1; i < half.size(); i++) {
            follows += half.get(i)[0] == half.get(i - 1)[0] + 4096 ? 1 : 0;
        }
        // half the I/Os continue from the last; a random one lands next to it 1 time in 1024
        assertEquals(0.5, follows / (double) half.size(), 0.05);
    }

    @Test
    void ioSizeLoopsOverTheRegionAndNumberIosStopsEarly() throws Exception {
        List<long[]> loops = issued(job("rw=read\nbs=4k\nsize=64k\nio_size=160k"));
        assertEquals(40, loops.size());
        assertEquals(4096L * 7, loops.get(39)[0], "the third pass stops half way");
        assertEquals(0, loops.get(16)[0], "the second pass starts at offset");
        assertEquals(2, issued(job("rw=read\nbs=4k\nsize=8k\nio_size=10k")).size(),
                "fio stops between passes when less than the largest bs is left");
        assertEquals(3, issued(job("rw=read\nbs=4k\nsize=16k\nio_size=10k")).size(),
                "within a pass it issues until io_size is reached");
        assertEquals(100, issued(job("rw=randread\nbs=4k\nsize=4m\nnumber_ios=100")).size());
        assertEquals(16, issued(job("rw=randread\nbs=4k\nsize=64k\nnumber_ios=100")).size(),
                "number_ios never extends the job");
    }

    @Test
    void timeBasedIgnoresNumberIosAndIoSize() throws Exception {
        Job j = job("rw=read\nbs=4k\nsize=16k\nnumber_ios=2\nio_size=8k\ntime_based\nruntime=1");
        IoSequence seq = IoSequence.forJob(j, 0);
        Set<Long> offsets = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            assertTrue(seq.hasNext());
            seq.nextIsRead();
            offsets.add(seq.offset());
        }
        assertEquals(Set.of(0L, 4096L, 8192L, 12288L), offsets, "wraps over the region");
    }
}
