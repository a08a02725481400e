package lab.engine.block;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class RamDiskTest {

    /** Completes synchronously into a field; the test owns the bio before and after. */
    static final class Sync implements BioEndIo {
        BlkStatus status;

        @Override
        public void endIo(Bio bio) {
            status = bio.status;
        }
    }

    static BlkStatus io(BlockDevice dev, Bioset set, ReqOp op, long byteOffset, MemorySegment data) {
        Sync s = new Sync();
        Bio bio = set.alloc(0, s);
        bio.op = op;
        bio.sector = byteOffset >> Bio.SECTOR_SHIFT;
        bio.size = (int) data.byteSize();
        MemorySegment buf = bio.vec.buffer();
        if (op == ReqOp.WRITE) {
            MemorySegment.copy(data, 0, buf, 0, data.byteSize());
        }
        dev.submitBio(bio);
        if (op == ReqOp.READ) {
            MemorySegment.copy(buf, 0, data, 0, data.byteSize());
        }
        set.free(bio);
        return s.status;
    }

    static MemorySegment pattern(Arena a, int len, int seed) {
        MemorySegment m = a.allocate(len);
        for (int i = 0; i < len; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + seed));
        }
        return m;
    }

    @Test
    void readsBackWhatWasWrittenAndZerosElsewhere() {
        try (Arena a = Arena.ofConfined(); RamDisk ram = new RamDisk("ram0", 1 << 20);
             Bioset set = new Bioset(1, 16384)) {
            // 6 KiB at byte 2560: starts mid-page, touches disk pages 0, 1 and 2
            MemorySegment w = pattern(a, 6144, 7);
            assertEquals(BlkStatus.OK, io(ram, set, ReqOp.WRITE, 2560, w));
            assertEquals(3, ram.nrPages());
            // read 16 KiB from 0: zeros, the data at 2560, zeros again
            MemorySegment r = a.allocate(16384);
            r.fill((byte) 0x55);
            assertEquals(BlkStatus.OK, io(ram, set, ReqOp.READ, 0, r));
            for (int i = 0; i < 16384; i++) {
                byte expect = i >= 2560 && i < 2560 + 6144 ? w.get(ValueLayout.JAVA_BYTE, i - 2560) : 0;
                assertEquals(expect, r.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
            }
            // a page never written reads as zeros, without allocating it
            MemorySegment far = a.allocate(4096);
            far.fill((byte) 1);
            assertEquals(BlkStatus.OK, io(ram, set, ReqOp.READ, 512 * 1024, far));
            assertEquals(-1, far.mismatch(a.allocate(4096)));
            assertEquals(3, ram.nrPages());
        }
    }

    @Test
    void ioBeyondTheEndFails() {
        try (Arena a = Arena.ofConfined(); RamDisk ram = new RamDisk("ram0", 1 << 20);
             Bioset set = new Bioset(1, 8192)) {
            assertEquals(BlkStatus.IOERR, io(ram, set, ReqOp.WRITE, (1 << 20) - 4096, a.allocate(8192)));
            assertEquals(BlkStatus.IOERR, io(ram, set, ReqOp.READ, 1 << 20, a.allocate(512)));
            assertEquals(0, ram.nrPages());
        }
    }

    /**
     * The pages live in one mapping advised for huge pages (DirectMap) wherever the kernel offers
     * transparent huge pages; two disks' pages are their own, and a disk reads zeros after another
     * disk's close.
     */
    @Test
    void pagesAreOneHugePageMappingPerDisk() throws java.io.IOException {
        java.nio.file.Path thp = java.nio.file.Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        boolean offered = java.nio.file.Files.exists(thp) && !java.nio.file.Files.readString(thp).contains("[never]");
        try (Arena a = Arena.ofConfined(); RamDisk one = new RamDisk("ram0", 8 << 20); RamDisk two = new RamDisk("ram1", 8 << 20);
             Bioset set = new Bioset(1, 4096)) {
            assertEquals(offered, one.hugePages(), "MADV_HUGEPAGE taken where " + thp + " offers THP");
            MemorySegment w = pattern(a, 4096, 3);
            assertEquals(BlkStatus.OK, io(one, set, ReqOp.WRITE, 5L << 20, w));
            MemorySegment r = a.allocate(4096);
            assertEquals(BlkStatus.OK, io(two, set, ReqOp.READ, 5L << 20, r));
            assertEquals(-1, r.mismatch(a.allocate(4096)), "the other disk's page is its own");
            assertEquals(BlkStatus.OK, io(one, set, ReqOp.READ, 5L << 20, r));
            assertEquals(-1, r.mismatch(w));
            assertEquals(0, two.nrPages());
        }
    }
}
