package lab.engine.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import lab.engine.sync.Workers;
import org.junit.jupiter.api.Test;

/**
 * {@code delete_partition()} under load: {@link Partition#refKill} while workers take and drop the
 * partition's {@code percpu_ref} on every I/O. The switch to atomic mode folds the per-cpu slots
 * after a grace period of the disk's RCU; every fast-path get/put still in progress when kill
 * began must land before the fold, or the count ends off by one: a lost put never releases the
 * partition, a lost get releases it under a holder (and again later).
 *
 * <p>Oversubscribed on purpose (more workers than cores), so that some worker is often preempted
 * inside a get or put when a kill comes; each round kills its partitions one after another, each
 * kill a fresh chance. All workers but the last are registered readers
 * ({@link BlockDevice#cpuOnline}); the last never registers, as a stray submitter would not.
 */
class PartitionKillTest {
    private static final int WORKERS = 6;
    private static final int PARTS = 4;
    private static final int ROUNDS = 120;
    /** I/Os (all workers together) between kills, so that each lands mid-run. */
    private static final long KILL_EVERY = 1_500;
    /** I/Os each worker issues after it has seen the last kill. */
    private static final long AFTER_KILL = 512;
    private static final long DEADLINE_S = 5;
    /** Sectors per partition; partition i starts at (i + 1) * PART_SECTORS. */
    private static final long PART_SECTORS = 1 << 18;

    /** A null_blk (irqmode=0) that checks, as each bio reaches it, that its partition is alive. */
    private static final class CheckingNullBlk implements BlockDevice {
        final AtomicInteger usesAfterRelease = new AtomicInteger();

        @Override
        public String name() {
            return "nullb0";
        }

        @Override
        public long capacitySectors() {
            return (PARTS + 2) * PART_SECTORS;
        }

        @Override
        public int logicalBlockSize() {
            return 512;
        }

        @Override
        public void submitBio(Bio bio) {
            Partition p = bio.acctPart;
            if (p.partno() != 0 && p.releases() != 0) {
                usesAfterRelease.incrementAndGet(); // the bio holds a reference to a released partition
            }
            Bio.bioEndio(bio);
        }
    }

    @Test
    void killUnderIoKeepsTheCountExact() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            oneRound(round);
        }
    }

    /**
     * The grace period ends under load: registered workers report a quiescent state per I/O, so
     * the kill's switch folds and the partition is released while they keep issuing, rather than
     * once they stop.
     */
    @Test
    void killCompletesWhileRegisteredWorkersKeepGoing() throws Exception {
        int workers = 2;
        Gendisk disk = new Gendisk(NullBlk.immediate("nullb0", 1L << 30, 512), AcctMode.PERCPU_REF,
                Jiffies.manual(1000), workers);
        Partition p1 = disk.addPartition(1, 2048, 1 << 20);
        AtomicLong progress = new AtomicLong();
        try (Bioset set = new Bioset(workers, 0)) {
            Workers.run(workers + 1, cpu -> {
                if (cpu == workers) {
                    while (progress.get() < KILL_EVERY) {
                        Thread.onSpinWait();
                    }
                    p1.refKill();
                    return;
                }
                p1.cpuOnline(cpu);
                try {
                    BioEndIo done = b -> { };
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
                    for (long n = 1; p1.releases() == 0; n++) {
                        Bio bio = set.alloc(cpu, done);
                        bio.op = ReqOp.READ;
                        bio.sector = (n & 1023) * 8;
                        bio.size = 4096;
                        p1.submitBio(bio);
                        set.free(bio);
                        if ((n & 63) == 0) {
                            progress.addAndGet(64);
                            if (System.nanoTime() - deadline > 0) {
                                throw new AssertionError("the kill's grace period did not end in " + DEADLINE_S
                                        + " s of I/O: no quiescent states reported?");
                            }
                        }
                    }
                } finally {
                    p1.cpuOffline(cpu);
                }
            });
        }
        assertEquals(1, p1.releases());
        assertTrue(p1.refIsZero());
    }

    private static void oneRound(int round) throws Exception {
        CheckingNullBlk dev = new CheckingNullBlk();
        Gendisk disk = new Gendisk(dev, AcctMode.PERCPU_REF, Jiffies.manual(1000), WORKERS + 1);
        Partition[] parts = new Partition[PARTS];
        for (int i = 0; i < PARTS; i++) {
            parts[i] = disk.addPartition(i + 1, (i + 1) * PART_SECTORS, PART_SECTORS);
        }
        AtomicLong progress = new AtomicLong();
        AtomicInteger killed = new AtomicInteger();
        long[] issued = new long[WORKERS];
        try (Bioset set = new Bioset(WORKERS + 1, 0)) {
            Workers.run(WORKERS + 1, cpu -> {
                if (cpu == WORKERS) { // delete_partition(), one after another, while the others keep going
                    for (int i = 0; i < PARTS; i++) {
                        while (progress.get() < (i + 1) * KILL_EVERY) {
                            Thread.onSpinWait();
                        }
                        parts[i].refKill();
                        killed.incrementAndGet();
                    }
                    return;
                }
                boolean registered = cpu < WORKERS - 1;
                if (registered) {
                    parts[0].cpuOnline(cpu); // the disk's RCU: one registration covers every partition
                }
                try {
                    BioEndIo done = b -> { };
                    SplittableRandom rnd = new SplittableRandom(round * 31L + cpu);
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
                    long n = 0;
                    long stopAt = Long.MAX_VALUE;
                    // After its kill a partition's I/O is accounted to part0; go on a while after the last.
                    while (n < stopAt) {
                        Bio bio = set.alloc(cpu, done);
                        bio.op = (n & 3) == 0 ? ReqOp.WRITE : ReqOp.READ;
                        bio.sector = (long) rnd.nextInt((int) (PART_SECTORS / 8)) * 8;
                        bio.size = 4096;
                        parts[rnd.nextInt(PARTS)].submitBio(bio);
                        set.free(bio);
                        if ((++n & 63) == 0) {
                            progress.addAndGet(64);
                            if (stopAt == Long.MAX_VALUE && killed.get() == PARTS) {
                                stopAt = n + AFTER_KILL;
                            }
                            if (System.nanoTime() - deadline > 0) {
                                throw new AssertionError("round " + round + ": still running after " + DEADLINE_S + " s");
                            }
                        }
                    }
                    issued[cpu] = n;
                } finally {
                    if (registered) {
                        parts[0].cpuOffline(cpu);
                    }
                }
            });
        }
        disk.rcu().barrier(); // every switch to atomic mode has run (this thread is no reader)
        // Every worker is offline and every reference but the tables' was dropped: each release has run.
        long total = 0;
        for (long n : issued) {
            total += n;
        }
        String where = "round " + round + ": ";
        assertEquals(0, dev.usesAfterRelease.get(), where + "I/O held a released partition (a lost get)");
        for (Partition p : parts) {
            String what = where + p.name() + ": ";
            assertEquals(1, p.releases(), what + "release ran once (0: a lost put)");
            assertTrue(p.refIsZero(), what + "the folded count is exactly zero");
            assertEquals(0, p.stat().inFlight(), what + "nothing in flight");
        }
        DiskStats.Sum whole = disk.part0().stat();
        assertEquals(total, whole.readIos() + whole.writeIos(), where + "every I/O accounted");
        assertEquals(0, whole.inFlight(), where + "nothing in flight on part0");
    }
}
