package lab.engine.dm;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import lab.engine.blkcg.CssForward;
import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlkStatus;
import lab.engine.block.BlockDevice;
import lab.engine.block.NullBlk;
import lab.engine.block.RamDisk;
import lab.engine.block.ReqOp;
import lab.engine.inject.Injection;
import lab.engine.sync.Rcu;
import lab.engine.sync.Workers;
import org.junit.jupiter.api.Test;

class MappedDeviceTest {
    private static final long MIB = 1 << 20;

    /** Records the bios a device below receives, completing them at once. */
    private static final class Capture implements BlockDevice {
        final List<Bio> seen = new ArrayList<>();
        final List<Long> sectors = new ArrayList<>();

        @Override public String name() { return "capture"; }
        @Override public long capacitySectors() { return MIB >> 9; }
        @Override public int logicalBlockSize() { return 512; }

        @Override
        public void submitBio(Bio bio) {
            seen.add(bio);
            sectors.add(bio.sector);
            Bio.bioEndio(bio);
        }
    }

    private static final class Done implements BioEndIo {
        int calls;
        BlkStatus status;

        @Override
        public void endIo(Bio bio) {
            calls++;
            status = bio.status;
        }
    }

    @Test
    void aCloneSharesThePagesAndOwnsItsIterator() {
        Capture below = new Capture();
        Rcu rcu = new Rcu(1);
        MappedDevice md = new MappedDevice("lin", new DmTable(List.of(new LinearTarget(0, 1024, below, 64)), 1), 1, rcu,
                CssForward.NONE, Injection.NONE);
        try (Bioset set = new Bioset(1, 4096)) {
            Done done = new Done();
            Bio bio = set.alloc(0, done);
            bio.op = ReqOp.WRITE;
            bio.sector = 10;
            bio.size = 1024;
            md.submitBio(bio);
            Bio clone = below.seen.getFirst();
            assertAll(
                    () -> assertEquals(List.of(74L), below.sectors, "linear_map: start + (sector - begin)"),
                    () -> assertEquals(1, done.calls, "the original completed once"),
                    () -> assertEquals(BlkStatus.OK, done.status),
                    () -> assertEquals(10, bio.sector, "the original's iterator is its own"),
                    () -> assertTrue(clone != bio, "a clone, not the bio itself"));
        }
        md.close();
    }

    @Test
    void aStackRemapsEveryLayerAndTheDataLands() {
        try (RamDisk ram = new RamDisk("ram0", MIB); Bioset set = new Bioset(1, 4096)) {
            Rcu rcu = new Rcu(1);
            MappedDevice lower = new MappedDevice("l1", new DmTable(List.of(new LinearTarget(0, 1024, ram, 512)), 1), 1, rcu,
                    CssForward.NONE, Injection.NONE);
            MappedDevice upper = new MappedDevice("l2", new DmTable(List.of(new LinearTarget(0, 512, lower, 256)), 1), 1, rcu,
                    CssForward.NONE, Injection.NONE);
            Done done = new Done();
            Bio w = set.alloc(0, done);
            w.op = ReqOp.WRITE;
            w.sector = 8;
            w.size = 512;
            w.vec.buffer().set(ValueLayout.JAVA_LONG, 0, 0x1234_5678_9abc_def0L);
            upper.submitBio(w);
            set.free(w);
            Bio r = set.alloc(0, done);
            r.op = ReqOp.READ;
            r.sector = 8 + 256 + 512; // where the two layers put it on the disk
            r.size = 512;
            ram.submitBio(r);
            assertEquals(0x1234_5678_9abc_def0L, r.vec.buffer().get(ValueLayout.JAVA_LONG, 0));
            assertEquals(2, done.calls);
            set.free(r);
            upper.close();
            lower.close();
        }
    }

    @Test
    void beyondTheEndUnalignedOrAcrossTargetsEndsWithIoErr() {
        NullBlk a = NullBlk.immediate("a", MIB, 4096);
        NullBlk b = NullBlk.immediate("b", MIB, 4096);
        Rcu rcu = new Rcu(1);
        MappedDevice md = new MappedDevice("two", new DmTable(List.of(new LinearTarget(0, 64, a, 0), new LinearTarget(64, 64, b, 8)), 1),
                1, rcu, CssForward.NONE, Injection.NONE);
        assertEquals(4096, md.logicalBlockSize(), "the largest block size below");
        try (Bioset set = new Bioset(1, 8192)) {
            for (long[] sz : new long[][] {{128, 4096}, {1, 4096}, {56, 8192}, {120, 4096}}) {
                Done done = new Done();
                Bio bio = set.alloc(0, done);
                bio.sector = sz[0];
                bio.size = (int) sz[1];
                md.submitBio(bio);
                boolean ok = sz[0] == 120;
                assertEquals(ok ? BlkStatus.OK : BlkStatus.IOERR, done.status, "sector " + sz[0] + " size " + sz[1]);
                assertEquals(1, done.calls);
                set.free(bio);
            }
        }
        md.close();
    }

    @Test
    void aTableFindsItsTargetsAndRefusesGaps() {
        NullBlk d = NullBlk.immediate("d", MIB, 512);
        DmTable t = new DmTable(List.of(new LinearTarget(0, 100, d, 0), new LinearTarget(100, 50, d, 200),
                new LinearTarget(150, 10, d, 300)), 1);
        assertAll(
                () -> assertEquals(160, t.sectors()),
                () -> assertEquals(0, t.findTarget(99).begin()),
                () -> assertEquals(100, t.findTarget(100).begin()),
                () -> assertEquals(150, t.findTarget(159).begin()),
                () -> assertEquals(null, t.findTarget(160)),
                () -> assertEquals("0 100 linear d 0\n100 50 linear d 200\n150 10 linear d 300\n", t.toString()));
        assertThrows(IllegalArgumentException.class, () -> new DmTable(List.of(new LinearTarget(0, 100, d, 0),
                new LinearTarget(101, 10, d, 0)), 1), "a gap");
        assertThrows(IllegalArgumentException.class, () -> new DmTable(List.of(new LinearTarget(0, 100, d, 0),
                new LinearTarget(90, 10, d, 0)), 1), "an overlap");
        assertThrows(IllegalArgumentException.class, () -> new DmTable(List.of(), 1));
    }

    @Test
    void linearChecksItsRangeInTheConstructor() {
        NullBlk d = NullBlk.immediate("d", MIB, 4096);
        long sectors = d.capacitySectors();
        assertThrows(IllegalArgumentException.class, () -> new LinearTarget(0, sectors, d, 8), "past the end");
        assertThrows(IllegalArgumentException.class, () -> new LinearTarget(0, 0, d, 0), "empty");
        assertThrows(IllegalArgumentException.class, () -> new LinearTarget(0, 8, d, 4), "unaligned start");
        assertThrows(IllegalArgumentException.class, () -> new LinearTarget(-8, 8, d, 0), "negative begin");
        assertEquals(sectors, LinearTarget.whole(d).len());
    }

    /** A linear target that fails the test if it maps or completes after its table was destroyed. */
    private static final class Checked implements DmTarget {
        final LinearTarget inner;
        final AtomicBoolean destroyed = new AtomicBoolean();
        final AtomicReference<String> misuse;

        Checked(BlockDevice dev, long start, AtomicReference<String> misuse) {
            this.inner = new LinearTarget(0, 1024, dev, start);
            this.misuse = misuse;
        }

        @Override public long begin() { return 0; }
        @Override public long len() { return 1024; }
        @Override public String type() { return "checked"; }
        @Override public String status() { return inner.status(); }
        @Override public List<BlockDevice> devices() { return inner.devices(); }

        @Override
        public int map(DmTargetIo tio) {
            if (destroyed.get()) {
                misuse.compareAndSet(null, "map after dtr");
            }
            return inner.map(tio);
        }

        @Override
        public int endIo(DmTargetIo tio) {
            if (destroyed.get()) {
                misuse.compareAndSet(null, "end_io after dtr");
            }
            return DM_ENDIO_DONE;
        }

        @Override
        public void dtr() {
            if (!destroyed.compareAndSet(false, true)) {
                misuse.compareAndSet(null, "dtr twice");
            }
        }
    }

    /** One worker's bios: each completes exactly once, counted. */
    private static final class Once implements BioEndIo {
        long completed;
        long errors;
        String failure;

        @Override
        public void endIo(Bio bio) {
            if (bio.privateData != this) {
                failure = "completed twice or never submitted";
            }
            bio.privateData = null;
            completed++;
            if (bio.status != BlkStatus.OK) {
                errors++;
            }
        }
    }

    @Test
    void aTableSwapWhileIoRunsNeverLosesNorDoublesABio() throws Exception {
        int n = 3;
        int ios = 3000;
        Rcu rcu = new Rcu(n);
        NullBlk disk = NullBlk.timer("nullb0", 16 * MIB, 512, 20_000, n); // bios stay in flight across swaps
        MappedDevice lower = new MappedDevice("l1", DmTable.linear(disk, n), n, rcu, CssForward.ATOMIC, Injection.NONE);
        AtomicReference<String> misuse = new AtomicReference<>();
        List<Checked> made = new ArrayList<>();
        made.add(new Checked(lower, 0, misuse));
        MappedDevice top = new MappedDevice("l2", new DmTable(List.of(made.getFirst()), n), n, rcu, CssForward.ATOMIC, Injection.NONE);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger swaps = new AtomicInteger();
        Thread swapper = Thread.ofPlatform().name("swapper").start(() -> {
            try {
                for (int i = 1; running.get(); i++) {
                    Checked next = new Checked(lower, 8L * (i % 4), misuse);
                    synchronized (made) {
                        made.add(next);
                    }
                    top.swapTable(new DmTable(List.of(next), n));
                    swaps.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long[] completed = new long[n];
        try (Bioset set = new Bioset(n, 4096)) {
            Workers.run(n, cpu -> {
                Once once = new Once();
                top.cpuOnline(cpu);
                try {
                    for (int i = 0; i < ios; i++) {
                        Bio bio = set.alloc(cpu, once);
                        bio.sector = 8L * (i % 64);
                        bio.size = 4096;
                        bio.privateData = once;
                        long before = once.completed;
                        top.submitBio(bio);
                        while (once.completed == before) {
                            top.poll(cpu);
                        }
                        set.free(bio);
                    }
                } finally {
                    top.cpuOffline(cpu);
                }
                completed[cpu] = once.completed;
                if (once.failure != null || once.errors != 0) {
                    throw new AssertionError("worker " + cpu + ": " + once.failure + ", " + once.errors + " errors");
                }
            });
        } finally {
            running.set(false);
            swapper.join(60_000);
        }
        assertTrue(swaps.get() > 0, "no swap happened during the I/O");
        for (int c = 0; c < n; c++) {
            assertEquals(ios, completed[c], "worker " + c);
        }
        assertEquals(null, misuse.get());
        synchronized (made) {
            for (Checked t : made.subList(0, made.size() - 1)) {
                assertTrue(t.destroyed.get(), "every table swapped out was destroyed");
            }
            assertTrue(!made.getLast().destroyed.get(), "the live table is not");
        }
        assertSame(made.getLast(), top.live().targets().getFirst());
        top.close();
        lower.close();
    }
}
