package lab.engine.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class BiosetTest {

    /** Counts completions; the one endIo object for every bio, as a workload thread is. */
    static final class Counter implements BioEndIo {
        final Bioset set;
        long done;
        long errors;

        Counter(Bioset set) {
            this.set = set;
        }

        @Override
        public void endIo(Bio bio) {
            done++;
            errors += bio.status == BlkStatus.OK ? 0 : 1;
            set.free(bio);
        }
    }

    @Test
    void freedBiosComeBackFromTheSameSlot() {
        try (Bioset set = new Bioset(2, 8192)) {
            Bio a = set.alloc(1, null);
            Bio b = set.alloc(1, null);
            assertNotSame(a, b);
            assertEquals(8192, a.vec.capacity());
            set.free(b);
            set.free(a);
            assertEquals(2, set.cached(1));
            assertSame(a, set.alloc(1, null));
            assertSame(b, set.alloc(1, null));
            assertEquals(0, set.cached(0), "slot 0 never saw them");
            assertEquals(2, set.created(1));
        }
    }

    @Test
    void cloneSharesTheVectorAndCopiesTheIterator() {
        try (Bioset set = new Bioset(1, 8192); Bioset clones = new Bioset(1, 0)) {
            Bio src = set.alloc(0, null);
            src.sector = 16;
            src.size = 8192;
            src.op = ReqOp.WRITE;
            src.blkcgAssociation = "cg";
            Bio clone = clones.allocClone(src, 0, null);
            assertSame(src.vec, clone.vec);
            assertSame(src, clone.parent);
            assertEquals(16, clone.sector);
            assertEquals(ReqOp.WRITE, clone.op);
            assertTrue((clone.flags & Bio.BIO_CLONED) != 0);
            assertNull(clone.blkcgAssociation, "association is the dm-blkcg-clone switch's to copy");
            Bio.bioAdvance(clone, 4096 + 512);
            assertEquals(16 + 9, clone.sector);
            assertEquals(1, clone.idx);
            assertEquals(512, clone.bvecDone);
            assertEquals(16, src.sector, "the source's iterator is its own");
            clones.free(clone);
            assertNull(clone.vec, "a clone-only bio owns no vector");
            set.free(src);
        }
    }

    @Test
    void submitCompleteAllocatesNothingAfterWarmUp() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        NullBlk dev = NullBlk.immediate("nullb0", 1L << 30, 512);
        Gendisk disk = new Gendisk(dev);
        try (Bioset set = new Bioset(1, 4096)) {
            Counter c = new Counter(set);
            loop(set, disk.part0(), c, 20_000);                      // warm-up and JIT
            long tid = Thread.currentThread().threadId();
            long before = mx.getThreadAllocatedBytes(tid);
            int n = 100_000;
            loop(set, disk.part0(), c, n);
            long bytes = mx.getThreadAllocatedBytes(tid) - before;
            assertEquals(120_000, c.done);
            assertEquals(0, c.errors);
            assertTrue(bytes < n, "allocated " + bytes + " bytes over " + n + " I/Os");
            assertEquals(1, set.created(0), "one bio serves every I/O at depth 1");
        }
    }

    private static void loop(Bioset set, BlockDevice dev, Counter c, int n) {
        for (int i = 0; i < n; i++) {
            Bio bio = set.alloc(0, c);
            bio.op = (i & 1) == 0 ? ReqOp.READ : ReqOp.WRITE;
            bio.sector = (i * 8L) & ((1L << 21) - 1);
            bio.size = 4096;
            dev.submitBio(bio);
        }
    }
}
