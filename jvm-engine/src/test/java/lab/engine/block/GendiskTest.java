package lab.engine.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class GendiskTest {

    @Test
    void partitionRemapAddsTheStartSector() {
        try (Arena a = Arena.ofConfined(); RamDisk ram = new RamDisk("ram0", 1 << 20);
             Bioset set = new Bioset(1, 4096)) {
            Gendisk disk = new Gendisk(ram);
            Partition p1 = disk.addPartition(1, 64, 256);
            assertEquals("ram0p1", p1.name());
            MemorySegment w = RamDiskTest.pattern(a, 4096, 3);
            assertEquals(BlkStatus.OK, RamDiskTest.io(p1, set, ReqOp.WRITE, 0, w));
            MemorySegment r = a.allocate(4096);
            assertEquals(BlkStatus.OK, RamDiskTest.io(disk.part0(), set, ReqOp.READ, 64 * 512, r));
            assertEquals(-1, w.mismatch(r), "partition sector 0 is disk sector 64");

            Bio bio = set.alloc(0, b -> { });
            bio.sector = 8;
            bio.size = 512;
            p1.submitBio(bio);
            assertEquals(72, bio.sector);
            assertTrue((bio.flags & Bio.BIO_REMAPPED) != 0);
            assertSame(p1, bio.bdev);
            set.free(bio);
        }
    }

    @Test
    void ioBeyondThePartitionFailsEvenInsideTheDisk() {
        try (Arena a = Arena.ofConfined(); RamDisk ram = new RamDisk("ram0", 1 << 20);
             Bioset set = new Bioset(1, 8192)) {
            Gendisk disk = new Gendisk(ram);
            Partition p1 = disk.addPartition(1, 64, 16);
            assertEquals(BlkStatus.IOERR, RamDiskTest.io(p1, set, ReqOp.WRITE, 4096, a.allocate(8192)));
            assertEquals(0, ram.nrPages(), "nothing reached the driver");
            assertEquals(BlkStatus.OK, RamDiskTest.io(p1, set, ReqOp.WRITE, 4096, a.allocate(4096)));
        }
    }

    @Test
    void diskMapSectorFindsThePartition() {
        Gendisk disk = new Gendisk(NullBlk.immediate("nullb0", 1 << 20, 512));
        Partition p1 = disk.addPartition(1, 100, 50);
        Partition p2 = disk.addPartition(2, 150, 10);
        assertSame(disk.part0(), disk.diskMapSector(99));
        assertSame(p1, disk.diskMapSector(100));
        assertSame(p1, disk.diskMapSector(149));
        assertSame(p2, disk.diskMapSector(150));
        assertSame(disk.part0(), disk.diskMapSector(160));
        assertSame(p2, disk.partition(2));
    }

    @Test
    void badPartitionsAreRefused() {
        Gendisk disk = new Gendisk(NullBlk.immediate("nullb0", 1 << 20, 512));
        disk.addPartition(1, 100, 50);
        assertThrows(IllegalArgumentException.class, () -> disk.addPartition(1, 500, 10));
        assertThrows(IllegalArgumentException.class, () -> disk.addPartition(2, 140, 20));
        assertThrows(IllegalArgumentException.class, () -> disk.addPartition(3, 2040, 20));
        assertThrows(IllegalArgumentException.class, () -> disk.addPartition(0, 500, 10));
    }
}
