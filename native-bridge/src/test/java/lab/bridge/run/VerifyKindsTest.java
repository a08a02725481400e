package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.assumeDirect;
import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.List;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every verify kind on a real file with O_DIRECT: a write job, then a stonewalled read job
 * verifying it in the same run; one byte changed in one block is found by the next read run.
 */
class VerifyKindsTest {

    private static final int BS = 4096;
    private static final int BLOCKS = 256;

    private Path dir;
    private Path file;

    @BeforeEach
    void file() throws Exception {
        dir = BridgeTesting.scratch("verify-kinds");
        file = dir.resolve("target.img");
        Files.deleteIfExists(file);
        Files.createFile(file);
        assumeDirect(file);
    }

    private BridgeTesting.Outcome runJob(String text) throws Exception {
        return run(dir, text);
    }

    private String text(String verify, boolean write, boolean read) {
        String s = "[global]\nioengine=psync\ndirect=1\nbs=4k\nsize=" + (BLOCKS * BS) + "\nfilename=" + file + "\n"
                + verify.replace(';', '\n') + "\n";
        if (write) {
            s += "[w]\nrw=randwrite\n";
        }
        if (read) {
            s += "[r]\nstonewall\nrw=read\n";
        }
        return s;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "verify=crc32 | crc32 0x",
            "verify=md5 | md5 ",
            "verify=sha1 | sha1 ",
            "verify=sha256 | sha256 ",
            "verify_pattern=0xdeadbeef | verify_pattern has 0x",
            "verify=crc32c;verify_pattern=\"lab!\" | crc32c 0x",
            "verify=sha256;verify_offset=1000 | sha256 ",
            "verify=crc32c;verify_pattern=0x0102030405;verify_offset=77 | crc32c 0x",
    })
    void writeThenReadFindsNothingAndAChangedByteIsFound(String verify, String describes) throws Exception {
        BridgeTesting.Outcome o = runJob(text(verify, true, true));
        List<FioJob> js = o.report().jobs();
        assertEquals(BLOCKS, js.get(0).write().totalIos());
        assertEquals(BLOCKS, js.get(0).read().totalIos(), "the write job reads its blocks back (do_verify)");
        assertEquals(0L, js.get(0).lab().verifyMismatches(), o.notes());
        assertEquals(BLOCKS, js.get(1).read().totalIos());
        assertEquals(0L, js.get(1).lab().verifyMismatches(), o.notes());
        assertEquals(0L, js.get(1).lab().verifyUnwritten(), o.notes());

        long victim = 41L * BS;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, victim + 3000);
            b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
            ch.write(b, victim + 3000);
            ch.force(true);
        }
        BridgeTesting.Outcome r = runJob(text(verify, false, true));
        FioJob rj = r.report().jobs().getFirst();
        assertEquals(1L, rj.lab().verifyMismatches(), r.notes());
        assertEquals(42, rj.read().totalIos(), "a sequential read stops at block 41 (EILSEQ), as fio's");
        assertEquals(84, rj.error(), r.notes());
        assertTrue(r.notes().contains("offset " + victim) && r.notes().contains(describes), r.notes());
    }

    /** The pattern is in the file as fio would lay it: repeated from each block's first byte (no header with verify=pattern). */
    @Test
    void patternKindWritesThePatternOnly() throws Exception {
        runJob(text("verify_pattern=0x0102030405", true, false));
        byte[] block = new byte[BS];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ch.read(ByteBuffer.wrap(block), 7L * BS);
        }
        assertEquals("01020304050102030405", HexFormat.of().formatHex(block, 0, 10));
        assertEquals(block[BS - 1], (byte) (1 + (BS - 1) % 5));
    }

    @Test
    void aBlockWrittenWithAnotherKindIsNamed() throws Exception {
        runJob(text("verify=md5", true, false));
        BridgeTesting.Outcome r = runJob(text("verify=sha256", false, true));
        assertEquals(1L, r.report().jobs().getFirst().lab().verifyMismatches(), "the first block stops the read");
        assertTrue(r.notes().contains("written with verify=md5, read with verify=sha256"), r.notes());
    }

    @Test
    void bsMustHoldTheDigestHeader() throws Exception {
        BridgeSetupException e = org.junit.jupiter.api.Assertions.assertThrows(BridgeSetupException.class,
                () -> runJob("[w]\nioengine=psync\nbs=64\nsize=64k\nverify=sha256\nrw=write\nfilename=" + file + "\n"));
        assertTrue(e.getMessage().contains("verify=sha256 needs each verify_interval piece larger than its 64-byte"
                + " header, but it is 64 bytes"), e.getMessage());
        assertEquals(0, Files.size(file), "nothing written");
    }

    /**
     * verify_interval cuts each write into pieces with a header each (fio's
     * populate_verify_io_u()): a byte changed in the third 512-byte piece of block 5 is found
     * there, and named as a piece of its I/O; verify=meta checks the header's fields with the
     * pattern, not a checksum of the data (fio's examples/surface-scan.fio in small).
     */
    @Test
    void verifyIntervalPiecesCarryAHeaderEach() throws Exception {
        String t = "[global]\nioengine=psync\ndirect=1\nbs=4k\nsize=" + (BLOCKS * BS) + "\nfilename=" + file
                + "\nverify=meta\nverify_pattern=0xaa555aa5\nverify_interval=512\n";
        BridgeTesting.Outcome w = runJob(t + "[w]\nrw=write\n");
        assertEquals(0, w.report().jobs().getFirst().error(), w.notes());
        assertEquals(BLOCKS, w.report().jobs().getFirst().read().totalIos(), w.notes());
        byte[] head = new byte[4];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (int piece = 0; piece < 8; piece++) {
                ch.read(ByteBuffer.wrap(head), 5L * BS + piece * 512);
                assertEquals("LABT", new String(head, java.nio.charset.StandardCharsets.US_ASCII), "piece " + piece);
            }
            ch.write(ByteBuffer.wrap(new byte[] {0x11}), 5L * BS + 2 * 512 + 100);
            ch.force(true);
        }
        BridgeTesting.Outcome r = runJob(t + "[r]\nrw=read\n");
        FioJob rj = r.report().jobs().getFirst();
        assertEquals(6, rj.read().totalIos(), r.notes());
        assertTrue(r.notes().contains("block at offset " + (5L * BS + 1024) + " (0x" + Long.toHexString(5L * BS + 1024)
                + "), 512 bytes (piece of the 4096-byte I/O at offset " + 5L * BS + "): byte " + (1024 + 100) + " is 0x11"),
                r.notes());
    }
}
