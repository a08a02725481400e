package lab.engine.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.SplittableRandom;
import lab.engine.sync.Workers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** The part-acct model: /proc/diskstats of every {@link AcctMode} is exact after quiescence. */
class BlkAccountTest {

    private static Bio start(Bioset set, BlockDevice dev, ReqOp op, long sector, int bytes) {
        Bio bio = set.alloc(0, b -> { });
        bio.op = op;
        bio.sector = sector;
        bio.size = bytes;
        dev.submitBio(bio);
        return bio;
    }

    /** Two overlapping I/Os on a hand-moved clock: every counter, tick by tick (v4.2's part_round_stats). */
    @ParameterizedTest
    @EnumSource(value = AcctMode.class, names = {"ATOMIC", "PERCPU_REF", "PERCPU_INFLIGHT"})
    void roundStatsCountsEveryTickExactly(AcctMode mode) {
        Jiffies j = Jiffies.manual(1000);
        HeldDevice held = new HeldDevice();
        Gendisk disk = new Gendisk(held, mode, j, 4);
        try (Bioset set = new Bioset(4, 0)) {
            j.advance(10);
            Bio a = start(set, disk.part0(), ReqOp.READ, 0, 4096);      // in flight from 10
            j.advance(2);
            Bio b = start(set, disk.part0(), ReqOp.WRITE, 800, 8192);   // from 12: 2 ticks with 1 in flight
            assertEquals(2, disk.part0().stat().inFlight());
            j.advance(3);
            held.complete(a);                                           // 15: 3 ticks with 2 in flight
            j.advance(5);
            held.complete(b);                                           // 20: 5 ticks with 1
            DiskStats.Sum s = disk.part0().stat();
            assertEquals(1, s.readIos());
            assertEquals(1, s.writeIos());
            assertEquals(8, s.readSectors());
            assertEquals(16, s.writeSectors());
            assertEquals(5, s.readTicks());
            assertEquals(8, s.writeTicks());
            assertEquals(0, s.inFlight());
            assertEquals(10, s.ioTicks(), "busy from 10 to 20");
            assertEquals(2 * 1 + 3 * 2 + 5 * 1, s.timeInQueue(), "in flight integrated over ticks");
            assertEquals(s.readTicks() + s.writeTicks(), s.timeInQueue(), "and equal to the summed durations");
        }
    }

    /** The same I/Os under update_io_ticks (v5.7): io_ticks within one tick, time_in_queue from durations. */
    @Test
    void lazyTicksStaysWithinOneTick() {
        Jiffies j = Jiffies.manual(250);
        HeldDevice held = new HeldDevice();
        Gendisk disk = new Gendisk(held, AcctMode.LAZY_TICKS, j, 4);
        try (Bioset set = new Bioset(4, 0)) {
            j.advance(10);
            Bio a = start(set, disk.part0(), ReqOp.READ, 0, 4096);
            j.advance(2);
            Bio b = start(set, disk.part0(), ReqOp.WRITE, 800, 8192);
            j.advance(3);
            held.complete(a);
            j.advance(5);
            held.complete(b);
            DiskStats.Sum s = disk.part0().stat();
            assertEquals(13, s.timeInQueue());
            assertTrue(Math.abs(s.ioTicks() - 10) <= 1, "io_ticks " + s.ioTicks() + " vs 10 busy");
            assertEquals(0, s.inFlight());
        }
    }

    /**
     * A random schedule that keeps the disk busy throughout (one I/O or more always in flight), the
     * clock moving at most a tick between events, as it does under load: io_ticks is the busy time
     * exactly (round_stats) or within one tick (lazy), ios and sectors are what was issued, and
     * part0 holds the sum of its partitions.
     */
    @ParameterizedTest
    @EnumSource(value = AcctMode.class, names = {"ATOMIC", "PERCPU_REF", "PERCPU_INFLIGHT", "LAZY_TICKS"})
    void busyScheduleOverTwoPartitions(AcctMode mode) {
        Jiffies j = Jiffies.manual(100);
        HeldDevice held = new HeldDevice();
        Gendisk disk = new Gendisk(held, mode, j, 8);
        Partition p1 = disk.addPartition(1, 2048, 4096);
        Partition p2 = disk.addPartition(2, 8192, 4096);
        SplittableRandom rnd = new SplittableRandom(7);
        ArrayDeque<Bio> q = new ArrayDeque<>();
        long[] ios = new long[3];
        long[] sectors = new long[3];
        try (Bioset set = new Bioset(8, 0)) {
            j.advance(5);
            long first = j.now();
            q.add(start(set, p1, ReqOp.READ, 0, 4096));
            ios[1]++;
            sectors[1] += 8;
            for (int i = 0; i < 5000; i++) {
                j.advance(rnd.nextInt(4) == 0 ? 1 : 0);
                if (q.size() < 2 || (q.size() < 8 && rnd.nextBoolean())) {
                    Partition p = rnd.nextBoolean() ? p1 : p2;
                    int blocks = 1 + rnd.nextInt(8);
                    q.add(start(set, p, rnd.nextBoolean() ? ReqOp.READ : ReqOp.WRITE,
                            rnd.nextInt(4096 - 8) & ~7, blocks * 512));
                    ios[p.partno()]++;
                    sectors[p.partno()] += blocks;
                } else {
                    held.complete(q.poll());
                }
            }
            while (!q.isEmpty()) {
                held.complete(q.poll());
            }
            long busy = j.now() - first;
            for (Partition p : new Partition[] {p1, p2}) {
                DiskStats.Sum s = p.stat();
                assertEquals(ios[p.partno()], s.readIos() + s.writeIos(), p.name() + " ios");
                assertEquals(sectors[p.partno()], s.readSectors() + s.writeSectors(), p.name() + " sectors");
                assertEquals(0, s.inFlight(), p.name() + " in flight");
            }
            DiskStats.Sum whole = disk.part0().stat();
            assertEquals(ios[1] + ios[2], whole.readIos() + whole.writeIos());
            assertEquals(sectors[1] + sectors[2], whole.readSectors() + whole.writeSectors());
            assertEquals(p1.stat().readTicks() + p2.stat().readTicks(), whole.readTicks());
            assertEquals(0, whole.inFlight());
            if (mode == AcctMode.LAZY_TICKS) {
                assertTrue(Math.abs(whole.ioTicks() - busy) <= 1, "io_ticks " + whole.ioTicks() + " vs busy " + busy);
            } else {
                assertEquals(busy, whole.ioTicks(), "part0 was busy throughout");
                assertEquals(whole.readTicks() + whole.writeTicks(), whole.timeInQueue());
            }
            assertFalse(p1.released() || p2.released() || disk.part0().released(), "every reference returned");
        }
    }

    /** iostats=0 counts nothing and takes no reference. */
    @Test
    void iostatsOffCountsNothing() {
        HeldDevice held = new HeldDevice();
        Gendisk disk = new Gendisk(held, AcctMode.OFF, null, 2);
        Partition p1 = disk.addPartition(1, 2048, 4096);
        try (Bioset set = new Bioset(2, 0)) {
            Bio a = start(set, p1, ReqOp.READ, 0, 4096);
            assertEquals(0, disk.part0().stat().inFlight());
            held.complete(a);
        }
        for (DiskStats.Sum s : disk.diskstats()) {
            assertEquals(new DiskStats.Sum(s.name(), s.partno(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), s);
        }
        assertThrows(IllegalArgumentException.class, () -> new Gendisk(held, AcctMode.ATOMIC, null, 2));
    }

    /** delete_partition's put: hd_struct_try_get fails, and the I/O is accounted to part0. */
    @ParameterizedTest
    @EnumSource(value = AcctMode.class, names = {"ATOMIC", "PERCPU_REF"})
    void deadPartitionFallsBackToPart0(AcctMode mode) throws Exception {
        Jiffies j = Jiffies.manual(1000);
        HeldDevice held = new HeldDevice();
        Gendisk disk = new Gendisk(held, mode, j, 2);
        Partition p1 = disk.addPartition(1, 2048, 4096);
        p1.refKill();
        if (mode == AcctMode.PERCPU_REF) {
            disk.rcu().barrier(); // the switch to atomic mode, after its grace period
        }
        assertTrue(p1.released(), "the table's reference was the last one");
        try (Bioset set = new Bioset(2, 0)) {
            Bio a = start(set, p1, ReqOp.READ, 0, 4096);
            assertSame(disk.part0(), a.acctPart);
            held.complete(a);
        }
        assertEquals(0, p1.stat().readIos());
        assertEquals(1, disk.part0().stat().readIos());
    }

    /** Real threads on the real clock: ios and sectors exact after quiescence, nothing left in flight. */
    @ParameterizedTest
    @EnumSource(AcctMode.class)
    void threadsOnTheTickerQuiesceExactly(AcctMode mode) throws Exception {
        int threads = 4;
        int perThread = 40_000;
        try (Jiffies j = Jiffies.start(1000); Bioset set = new Bioset(threads, 0)) {
            Gendisk disk = new Gendisk(NullBlk.immediate("nullb0", 1L << 30, 512), mode, j, 64);
            Partition p1 = disk.addPartition(1, 2048, (1L << 21) - 4096);
            long t0 = j.now();
            Workers.run(threads, cpu -> {
                BioEndIo done = b -> { };
                SplittableRandom rnd = new SplittableRandom(cpu);
                for (int i = 0; i < perThread; i++) {
                    Bio bio = set.alloc(cpu, done);
                    bio.op = i % 3 == 0 ? ReqOp.WRITE : ReqOp.READ;
                    bio.sector = (long) rnd.nextInt(1 << 17) * 8;
                    bio.size = 4096;
                    (i % 2 == 0 ? p1 : disk.part0()).submitBio(bio);
                    set.free(bio);
                }
            });
            long elapsed = j.now() - t0;
            DiskStats.Sum whole = disk.part0().stat();
            DiskStats.Sum part = p1.stat();
            long n = (long) threads * perThread;
            if (!mode.enabled()) {
                assertEquals(0, whole.readIos() + whole.writeIos());
                return;
            }
            // Whole-disk bios at sectors inside p1 are accounted to p1 (disk_map_sector), as in v4.2.
            assertEquals(n, whole.readIos() + whole.writeIos(), "every bio on part0");
            assertEquals(n * 8, whole.readSectors() + whole.writeSectors());
            assertTrue(part.readIos() + part.writeIos() >= n / 2, "p1's own bios at least");
            assertEquals(0, whole.inFlight());
            assertEquals(0, part.inFlight());
            if (mode == AcctMode.LAZY_TICKS) {
                assertTrue(whole.ioTicks() <= elapsed + 1, "one CAS winner per tick: " + whole.ioTicks() + " <= " + elapsed + " + 1");
            }
        }
    }

    /** The ticker keeps time: jiffies follows the wall clock at HZ, late wake-ups lose no tick. */
    @Test
    void tickerFollowsTheWallClock() throws Exception {
        for (int hz : new int[] {100, 1000}) {
            try (Jiffies j = Jiffies.start(hz)) {
                long t0 = System.nanoTime();
                Thread.sleep(300);
                long expected = (System.nanoTime() - t0) * hz / 1_000_000_000L;
                long now = j.now();
                assertTrue(now <= expected + 1 && now >= expected - 1 - expected / 5,
                        "HZ=" + hz + ": jiffies " + now + " after " + expected + " ticks of wall time");
            }
        }
        assertThrows(IllegalStateException.class, () -> {
            try (Jiffies j = Jiffies.start(100)) {
                j.advance(1);
            }
        });
    }
}
