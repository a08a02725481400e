package lab.engine.thin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import lab.engine.blkcg.CssForward;
import lab.engine.block.Bio;
import lab.engine.block.Bioset;
import lab.engine.block.BlkStatus;
import lab.engine.block.RamDisk;
import lab.engine.block.ReqOp;
import lab.engine.bufio.Buffer;
import lab.engine.bufio.BufioClient;
import lab.engine.bufio.BufioLocking;
import lab.engine.count.SharedLines;
import lab.engine.dm.DmTable;
import lab.engine.dm.MappedDevice;
import lab.engine.inject.Injection;
import lab.engine.sync.Rcu;
import lab.engine.sync.Workers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * dm-thin over dm-bufio, under every bufio locking: concurrent provisioning never maps a virtual
 * block twice or a data block to two virtual blocks (each 4k written by one thread reads back as
 * written, and the metadata checks); a lookup racing an insert sees no mapping or the final one,
 * never another; a cache smaller than the tree evicts, writes back and re-reads correctly; and the
 * check finds a corrupt node (so that its silence means something).
 */
class ThinPoolTest {
    private static final int BS = 4096;
    private static final int THREADS = 4;

    /** A pool of {@code mib} MiB of data, its metadata cached in {@code cache} blocks, one thin device over all of it. */
    private static final class Rig implements AutoCloseable {
        final RamDisk data;
        final RamDisk meta = new RamDisk("ram1", 8L << 20);
        final ThinPool pool;
        final MappedDevice thin;
        final Bioset bios = new Bioset(THREADS, BS);

        Rig(BufioLocking locking, long mib, int cache) {
            data = new RamDisk("ram0", mib << 20);
            pool = new ThinPool(meta, data, ThinPool.MIN_BLOCK_SECTORS, cache, locking, THREADS, SharedLines.NONE);
            thin = new MappedDevice("thin", new DmTable(List.of(pool.createThin(0, (mib << 20) >>> 9, 0)), THREADS), THREADS,
                    new Rcu(THREADS), CssForward.NONE, Injection.NONE);
        }

        /** One 4k I/O of page {@code page}: writes {@code tag} into every long of it, or reads and returns the first long. */
        long io(int cpu, ReqOp op, long page, long tag) {
            Bio b = bios.alloc(cpu, x -> { });
            MemorySegment mem = b.vec.buffer();
            b.op = op;
            b.sector = page * (BS >>> 9);
            b.size = BS;
            if (op.isWrite()) {
                for (int i = 0; i < BS; i += 8) {
                    mem.set(ValueLayout.JAVA_LONG, i, tag);
                }
            }
            thin.submitBio(b);
            BlkStatus st = b.status;
            long first = mem.get(ValueLayout.JAVA_LONG, 0);
            long last = mem.get(ValueLayout.JAVA_LONG, BS - 8);
            bios.free(b);
            assertEquals(BlkStatus.OK, st, op + " of page " + page);
            assertEquals(first, last, "page " + page + " torn");
            return first;
        }

        @Override
        public void close() {
            thin.close();
            bios.close();
            pool.close();
            data.close();
            meta.close();
        }
    }

    @ParameterizedTest
    @EnumSource(BufioLocking.class)
    void concurrentProvisioningMapsEachBlockOnce(BufioLocking locking) throws Exception {
        try (Rig r = new Rig(locking, 32, 1024)) {
            long pages = (32L << 20) / BS;
            // thread t writes pages p with p % THREADS == t: every 64 KiB block is written by all four at once
            Workers.run(THREADS, cpu -> {
                r.thin.cpuOnline(cpu);
                for (long p = cpu; p < pages; p += THREADS) {
                    r.io(cpu, ReqOp.WRITE, p, (p << 8) | cpu);
                }
                r.thin.cpuOffline(cpu);
            });
            for (long p = 0; p < pages; p++) {
                assertEquals((p << 8) | (p % THREADS), r.io(0, ReqOp.READ, p, 0), "page " + p);
            }
            assertEquals(List.of(), r.pool.metadata().check(0));
            assertEquals(r.pool.dataBlocks(), r.pool.metadata().dataUsed());
            assertEquals(r.pool.dataBlocks(), r.pool.metadata().shape(0).mappings());
            assertEquals(0, r.pool.prison.held());
            assertEquals(0, r.pool.allIo.inFlight());
        }
    }

    @ParameterizedTest
    @EnumSource(BufioLocking.class)
    void lookupRacingInsertSeesOldOrNew(BufioLocking locking) throws Exception {
        try (Rig r = new Rig(locking, 64, 1024)) {
            int blocks = (int) r.pool.dataBlocks();
            AtomicLongArray seen = new AtomicLongArray(blocks); // first value a reader saw, + 1 (0: none yet)
            AtomicBoolean done = new AtomicBoolean();
            AtomicBoolean lost = new AtomicBoolean();
            Workers.run(THREADS, cpu -> {
                if (cpu == 0) {
                    for (long v = blocks - 1; v >= 0; v--) { // descending: every insert lands at a leaf's front
                        r.pool.metadata().provision(0, v, cpu);
                    }
                    done.set(true);
                    return;
                }
                long k = cpu;
                while (!done.get()) {
                    long v = (k = k * 6364136223846793005L + 1442695040888963407L) >>> 1;
                    int vb = (int) (v % blocks);
                    long res = r.pool.metadata().findBlock(0, vb, true, cpu);
                    if (res == ThinMetadata.NODATA) {
                        if (seen.get(vb) != 0) {
                            lost.set(true); // mapped once, gone later
                        }
                    } else {
                        seen.compareAndSet(vb, 0, res + 1);
                        if (seen.get(vb) != res + 1) {
                            lost.set(true);
                        }
                    }
                }
            });
            assertFalse(lost.get(), "a lookup saw a mapping vanish or change");
            for (int vb = 0; vb < blocks; vb++) {
                long fin = r.pool.metadata().findBlock(0, vb, true, 0);
                assertNotEquals(ThinMetadata.NODATA, fin);
                if (seen.get(vb) != 0) {
                    assertEquals(fin + 1, seen.get(vb), "block " + vb + ": a reader saw another mapping than the final one");
                }
            }
            assertEquals(List.of(), r.pool.metadata().check(0));
        }
    }

    @ParameterizedTest
    @EnumSource(BufioLocking.class)
    void smallCacheEvictsWritesBackAndRereads(BufioLocking locking) throws Exception {
        try (Rig r = new Rig(locking, 192, 8)) { // 3072 mappings: 25 leaves at least, in 8 buffers
            long pages = (192L << 20) / BS;
            Workers.run(THREADS, cpu -> {
                r.thin.cpuOnline(cpu);
                for (long p = cpu * 16L; p < pages; p += THREADS * 16L) { // one page per 64 KiB block
                    r.io(cpu, ReqOp.WRITE, p, p * 31);
                }
                r.thin.cpuOffline(cpu);
            });
            assertTrue(r.pool.metadata().commit(0));
            BufioClient.Stats before = r.pool.metadata().bufio().stats();
            assertTrue(before.evictions() > 0 && before.writes() > 0, "no eviction or write-back: " + before);
            Workers.run(THREADS, cpu -> {
                r.thin.cpuOnline(cpu);
                for (long p = (pages / 16 - 1 - cpu) * 16L; p >= 0; p -= THREADS * 16L) {
                    assertEquals(p * 31, r.io(cpu, ReqOp.READ, p, 0), "page " + p);
                }
                r.thin.cpuOffline(cpu);
            });
            BufioClient.Stats after = r.pool.metadata().bufio().stats();
            assertTrue(after.reads() > before.reads(), "no node re-read: " + after);
            assertTrue(after.buffers() <= 8 + THREADS * 2, "cache grew to " + after.buffers());
            assertEquals(List.of(), r.pool.metadata().check(0));
            assertTrue(r.pool.metadata().shape(0).nodes() > 8, "the tree fits the cache");
        }
    }

    @ParameterizedTest
    @EnumSource(BufioLocking.class)
    void checkFindsACorruptNode(BufioLocking locking) throws Exception {
        try (Rig r = new Rig(locking, 64, 1024)) {
            for (long v = 0; v < r.pool.dataBlocks(); v++) {
                r.pool.metadata().provision(0, v, 0);
            }
            assertEquals(List.of(), r.pool.metadata().check(0));
            long leaf = 2; // the device tree's root is block 1, the mapping tree's root block 2, a leaf after splits
            Buffer b = r.pool.metadata().bufio().read(leaf, 0);
            MemorySegment n = b.data();
            long k0 = BtreeNode.key(n, 0);
            BtreeNode.setKey(n, 0, BtreeNode.key(n, 1)); // two equal keys
            r.pool.metadata().bufio().release(b);
            List<String> problems = r.pool.metadata().check(0);
            assertFalse(problems.isEmpty(), "a duplicated key went unnoticed");
            b = r.pool.metadata().bufio().read(leaf, 0);
            BtreeNode.setKey(b.data(), 0, k0);
            r.pool.metadata().bufio().release(b);
            assertEquals(List.of(), r.pool.metadata().check(0));
        }
    }
}
