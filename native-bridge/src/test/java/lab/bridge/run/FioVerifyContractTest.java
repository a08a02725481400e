package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.bridge.engine.BridgeEngines;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * fio 3.33's read-back of what a job wrote ({@code verify} with {@code do_verify},
 * {@code verify_backlog}, {@code verify_backlog_batch}, {@code verify_interval}, {@code meta})
 * against the bridge's ({@link lab.jobspec.VerifyLog}, {@link lab.jobspec.IoSequence}): the same
 * job on a 1 MiB sparse file, run by fio (where fio 3.33 is installed) and by the bridge; compared
 * are the reads (the read-backs are reads in both) and writes each did, and the job's error.
 * Each side checks its own layout, so each verifies what it wrote itself.
 */
class FioVerifyContractTest {
    private Path dir;
    private Path file;

    @BeforeEach
    void file() throws Exception {
        file = BridgeTesting.sparseFile("verifycontract", 1L << 20);
        dir = file.getParent();
    }

    /** One job's reads, writes and error. */
    private record Did(long reads, long writes, long error) {
    }

    private Did fio(String text, int exit) throws Exception {
        Path jobFile = dir.resolve("job.fio");
        Files.writeString(jobFile, text);
        JsonNode j = BridgeTesting.fioJobs(jobFile, exit).get(0);
        return new Did(j.get("read").get("total_ios").asLong(), j.get("write").get("total_ios").asLong(),
                j.get("error").asLong());
    }

    private Did lab(String text) throws Exception {
        FioJob j = BridgeTesting.run(jobs(dir, "lab.fio", text), new BridgeRun.Options(null, false,
                DeviceOwnership.registry(), BridgeEngines::open)).report().jobs().getFirst();
        return new Did(j.read().totalIos(), j.write().totalIos(), j.error());
    }

    private String job(String options) {
        return "[j]\nfilename=" + file + "\nsize=1m\nbs=4k\nverify=crc32c\n" + options.replace(' ', '\n') + "\n";
    }

    /**
     * Jobs whose I/O counts do not depend on fio's random numbers: the same reads and writes, exactly.
     * A write job reads every block back (256 of 4k), after the pass or during it with a backlog,
     * and per pass with {@code loops}; none with {@code do_verify=0}; {@code io_size} stops after
     * one pass because the read-backs count toward it; a random job with its random map reads back
     * each write once; {@code rw=write:4k} wraps and writes its 128 blocks twice, and only the
     * last write of a block is read back.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "rw=write",
            "rw=write verify_backlog=4",
            "rw=write verify_backlog=4 verify_backlog_batch=2",
            "rw=write verify_backlog=1",
            "rw=write do_verify=0",
            "rw=write loops=2",
            "rw=write io_size=2m",
            "rw=randwrite",
            "rw=write:4k",
            "rw=write ioengine=libaio iodepth=8 verify_backlog=5",
            "rw=write bs=64k verify=meta verify_pattern=0xaa555aa5 verify_interval=512"})
    void readBackCountsAsFios(String options) throws Exception {
        String text = job(options);
        Did fio = fio(text, 0);
        Did lab = lab(text);
        System.out.println(options + ": fio " + fio + ", lab " + lab);
        assertEquals(fio, lab, options);
        if (!options.contains("do_verify=0") && !options.contains(":")) {
            assertEquals(lab.writes, lab.reads, "every write read back: " + options);
        }
    }

    /**
     * Jobs whose counts depend on the random numbers, which the lab draws with its own generator:
     * what holds whatever the draws. norandommap rewrites some blocks, and only each block's last
     * write is read back: fewer reads than writes, as many as the distinct blocks written, in both.
     * A random read-write job's pass is 256 I/Os of its own, then its writes are read back: 256
     * reads in all, in both, with a backlog too. Sizes drawn from a range (read back in pieces of
     * the smallest): every write read back.
     */
    @Test
    void readBackOfRandomJobsHoldsTheSameInvariants() throws Exception {
        for (Did d : both("rw=randwrite norandommap")) {
            assertEquals(256, d.writes);
            // distinct blocks of 256 uniform draws over 256: about 256 * (1 - 1/e) = 162
            assertTrue(d.reads > 140 && d.reads < 185, "distinct blocks read back: " + d);
        }
        for (Did d : both("rw=randrw")) {
            assertEquals(256, d.reads, "own reads + every write read back: " + d);
            assertTrue(d.writes > 96 && d.writes < 160, "about half the pass writes: " + d);
        }
        for (Did d : both("rw=randrw verify_backlog=3")) {
            assertEquals(256, d.reads, "with a backlog: " + d);
        }
        for (Did d : both("rw=write verify=md5 bsrange=4k-16k")) {
            assertEquals(d.writes, d.reads, "every write read back: " + d);
            assertTrue(d.writes >= 64 && d.writes < 256, "1m in 4k..16k writes: " + d);
        }
    }

    /** fio's and the lab's runs of the job with {@code options}, in that order. */
    private Did[] both(String options) throws Exception {
        String text = job(options);
        Did[] d = {fio(text, 0), lab(text)};
        System.out.println(options + ": fio " + d[0] + ", lab " + d[1]);
        return d;
    }

    /**
     * A block that fails its check stops the job with EILSEQ, in both: each side writes the file
     * with its own headers, byte 100 of block 10 is overwritten, and a read job with
     * {@code verify} stops at block 10: 11 reads, error 84.
     */
    @Test
    void aCorruptBlockStopsTheReadJobThere() throws Exception {
        Did[] both = readAfterCorrupting(job("rw=write do_verify=0"), job("rw=read"), 10 * 4096 + 100);
        System.out.println("corrupt block 10: fio " + both[0] + ", lab " + both[1]);
        assertEquals(new Did(11, 0, 84), both[0]);
        assertEquals(both[0], both[1]);
    }

    /**
     * Each side stamps the file with {@code write}, the 4 bytes at {@code at} change, and then
     * {@code read} runs: fio's and the lab's.
     */
    private Did[] readAfterCorrupting(String write, String read, long at) throws Exception {
        fio(write, 0);
        corrupt(at);
        Did fio = fio(read, 1);
        lab(write);
        corrupt(at);
        return new Did[] {fio, lab(read)};
    }

    /**
     * verify_offset: each block's header lies 512 bytes into it (swapped with the data there
     * before the write, back before the check: fio's memswp()). Written and read back, 256 each
     * and no error, in both; the lab's magic is at byte 512 of a block, not at 0; a block whose
     * header, at 512, has changed stops a read job there with EILSEQ, in both.
     */
    @Test
    void verifyOffsetMovesTheHeaderIntoTheBlock() throws Exception {
        String write = job("rw=write verify_offset=512");
        Did fio = fio(write, 0);
        Did lab = lab(write);
        System.out.println("verify_offset=512: fio " + fio + ", lab " + lab);
        assertEquals(new Did(256, 256, 0), fio);
        assertEquals(fio, lab);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            f.seek(10 * 4096 + 512);
            assertEquals(VerifyHeader.MAGIC, Integer.reverseBytes(f.readInt()), "the magic 512 bytes in");
            f.seek(10 * 4096);
            assertTrue(Integer.reverseBytes(f.readInt()) != VerifyHeader.MAGIC, "data at the block's start");
        }
        Did[] bad = readAfterCorrupting(job("rw=write do_verify=0 verify_offset=512"), job("rw=read verify_offset=512"),
                10 * 4096 + 512 + 8);
        System.out.println("verify_offset=512, header of block 10 changed: fio " + bad[0] + ", lab " + bad[1]);
        assertEquals(new Did(11, 0, 84), bad[0]);
        assertEquals(bad[0], bad[1]);
    }

    /**
     * verify_only: the job's writes are walked and counted, not issued, then read back: on a file
     * the same job wrote before, 256 writes and 256 reads without an error; with a block changed
     * since, the read-back stops there (EILSEQ), in both. Each side checks the file it wrote.
     */
    @Test
    void verifyOnlyChecksWhatTheSameJobWroteBefore() throws Exception {
        String write = job("rw=randwrite do_verify=0");
        String only = job("rw=randwrite verify_only=1");
        fio(write, 0);
        Did fio = fio(only, 0);
        lab(write);
        Did lab = lab(only);
        System.out.println("verify_only: fio " + fio + ", lab " + lab);
        assertEquals(new Did(256, 256, 0), fio);
        assertEquals(fio, lab);
        corrupt(100 * 4096 + 7);
        Did bad = lab(only);
        assertEquals(84, bad.error, bad.toString());
        assertTrue(bad.reads < 256, bad.toString());
    }

    /**
     * fio's examples/cross-stripe-verify.fio in small: clones with {@code offset_increment} each
     * write, and read back, their own stripe ({@code rw=write:12k} leaves holes), twice
     * ({@code loops=2}). The same reads and writes per clone in both, and the same 4k blocks of
     * the file written (non-zero) after each side's run on a fresh file.
     */
    @Test
    void offsetIncrementGivesEachCloneItsOwnStripe() throws Exception {
        String text = "[global]\nfilename=" + file + "\nbs=4k\nrw=write:12k\nverify=crc32c\nverify_backlog=1\n"
                + "offset=64k\noffset_increment=256k\nsize=128k\nloops=2\n[stripes]\nnumjobs=3\n";
        Path jobFile = dir.resolve("job.fio");
        Files.writeString(jobFile, text);
        JsonNode fioJobs = BridgeTesting.fioJobs(jobFile);
        String fioBlocks = writtenBlocks();
        file = BridgeTesting.sparseFile("verifycontract", 1L << 20);
        List<FioJob> labJobs = BridgeTesting.run(jobs(dir, "lab.fio", text), new BridgeRun.Options(null, false,
                DeviceOwnership.registry(), BridgeEngines::open)).report().jobs();
        String labBlocks = writtenBlocks();
        System.out.println("written 4k blocks:\nfio " + fioBlocks + "\nlab " + labBlocks);
        assertEquals(fioBlocks, labBlocks);
        assertEquals(3, labJobs.size());
        for (int c = 0; c < 3; c++) {
            JsonNode f = fioJobs.get(c);
            assertEquals(new Did(f.get("read").get("total_ios").asLong(), f.get("write").get("total_ios").asLong(), 0),
                    new Did(labJobs.get(c).read().totalIos(), labJobs.get(c).write().totalIos(), labJobs.get(c).error()),
                    "clone " + c);
        }
    }

    /** The file's 4k blocks, 1 where any byte is not zero. */
    private String writtenBlocks() throws Exception {
        byte[] all = Files.readAllBytes(file);
        StringBuilder b = new StringBuilder();
        for (int at = 0; at < all.length; at += 4096) {
            boolean any = false;
            for (int i = at; i < at + 4096 && !any; i++) {
                any = all[i] != 0;
            }
            b.append(any ? '1' : '0');
        }
        return b.toString();
    }

    private void corrupt(long at) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            f.write(new byte[] {'X', 'X', 'X', 'X'});
        }
    }
}
