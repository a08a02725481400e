package lab.engine.zram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZramResetTest {
    private static final int NR_PAGES = 64;
    private static final long DISKSIZE = (long) NR_PAGES * Zram.PAGE_SIZE;
    private static final int IO_THREADS = 2;
    private static final int CYCLES = 200;
    /** I/Os per open()/release() of a worker, so that the none guard's reset gets its turn. */
    private static final int BATCH = 16;

    /** (a) Reset and init 200 times under live reads, writes and discards: no use after free, no exception, no torn page. */
    @ParameterizedTest
    @EnumSource(GuardKind.class)
    void resetRacingIoNeverFreesMetaUnderAnIo(GuardKind kind) throws Exception {
        Zram z = new Zram(kind, Compressor.LZ4, IO_THREADS);
        z.init(DISKSIZE);
        long uafBefore = ZramMeta.useAfterFree();
        Race race = new Race(z, false);
        int cycles = race.run(CYCLES, TimeUnit.SECONDS.toNanos(20), () -> 0);
        assertNull(race.error.get(), () -> "an I/O thread failed: " + race.error.get());
        assertEquals(CYCLES, cycles);
        assertEquals(uafBefore, ZramMeta.useAfterFree(), "use after free under the " + kind.cliName() + " guard");
        assertEquals(0, race.corrupt.sum(), "reads returned pages that were never written whole");
        assertTrue(race.ok.sum() > CYCLES, "I/O must have run between resets: " + race);
        assertEquals(DISKSIZE, z.disksize());
    }

    /** (b) Reset waits for an I/O inside the guard (for none: for the opener), and finishes once it leaves. */
    @ParameterizedTest
    @EnumSource(GuardKind.class)
    void resetWaitsForAnIoInFlight(GuardKind kind) throws Exception {
        Zram z = new Zram(kind, Compressor.LZO_RLE, 2);
        z.init(DISKSIZE);
        assertTrue(z.write(3, Pages.random(3), 0));
        z.open();
        int token = z.guard().enter(0);
        assertTrue(token >= 0, "the device is initialised");
        CountDownLatch resetDone = new CountDownLatch(1);
        Thread resetter = Thread.ofPlatform().daemon().name("reset").start(() -> {
            z.reset();
            resetDone.countDown();
        });
        ZramMeta inUse = z.currentMeta();
        assertFalse(resetDone.await(100, TimeUnit.MILLISECONDS), "reset finished under an I/O in flight");
        assertFalse(inUse.isFreed(), "reset freed the meta under an I/O in flight");
        assertEquals(DISKSIZE, z.disksize());
        z.guard().exit(0, token);
        if (kind == GuardKind.NONE) {
            assertFalse(resetDone.await(50, TimeUnit.MILLISECONDS), "none: reset must wait for the opener, not the I/O");
        } else {
            assertTrue(resetDone.await(10, TimeUnit.SECONDS), kind + ": reset must finish once the I/O has left, device still open");
        }
        z.release();
        assertTrue(resetDone.await(10, TimeUnit.SECONDS), "reset must finish once the device is released");
        resetter.join();
        assertTrue(inUse.isFreed(), "reset frees and poisons the meta");
        assertEquals(0, z.disksize());
        assertEquals(MetaGuard.NOT_INITIALISED, z.guard().enter(1), "readers see the device not initialised");
    }

    /** (c) After reset and init the device holds nothing: no stale page, no stale statistic. */
    @ParameterizedTest
    @EnumSource(GuardKind.class)
    void resetThenInitReadsZeros(GuardKind kind) {
        Zram z = new Zram(kind, Compressor.LZ4, 1);
        z.init(DISKSIZE);
        for (int i = 0; i < NR_PAGES; i++) {
            byte[] p = new byte[Zram.PAGE_SIZE];
            Pages.fill(p, i, 1 + i);
            assertTrue(z.write(i, p, 0));
        }
        assertEquals(NR_PAGES, z.mmStat().pagesStored());
        z.reset();
        assertEquals(0, z.disksize());
        assertFalse(z.read(0, new byte[Zram.PAGE_SIZE], 0), "I/O to a reset device fails");
        assertEquals(new MmStat(0, 0, 0, 0, 0, 0), z.mmStat());
        z.reset(); // resetting a device that is not initialised does nothing
        z.init(DISKSIZE);
        byte[] got = new byte[Zram.PAGE_SIZE];
        for (int i = 0; i < NR_PAGES; i++) {
            java.util.Arrays.fill(got, (byte) 1);
            assertTrue(z.read(i, got, 0));
            assertTrue(Pages.isZero(got), "page " + i + " kept data across reset");
        }
        assertEquals(new MmStat(0, 0, 0, 0, 0, 0), z.mmStat());
        assertTrue(z.write(0, Pages.random(1), 0), "the new meta is usable");
        assertEquals(1, z.mmStat().hugePages());
    }

    /** (d) The detector works: a guard whose reset does not wait lets I/O touch the freed meta. */
    @Test
    void aGuardThatDoesNotWaitIsCaught() throws Exception {
        Zram z = new Zram(GuardKind.NONE, new FlagOnlyGuard(), Compressor.LZ4, IO_THREADS);
        z.init(DISKSIZE);
        long uafBefore = ZramMeta.useAfterFree();
        Race race = new Race(z, true);
        race.run(100_000, TimeUnit.SECONDS.toNanos(5), () -> ZramMeta.useAfterFree() - uafBefore);
        assertTrue(ZramMeta.useAfterFree() > uafBefore, "a reset that does not wait for I/O went undetected: " + race);
    }

    /** A broken guard: readers only test a flag, and beginReset clears it without waiting for them. */
    private static final class FlagOnlyGuard implements MetaGuard {
        private volatile boolean initDone;

        @Override
        public int enter(int cpu) {
            return initDone ? 0 : NOT_INITIALISED;
        }

        @Override
        public void exit(int cpu, int token) {
        }

        @Override
        public void beginReset() {
            initDone = false;
        }

        @Override
        public void endReset() {
            initDone = true;
        }
    }

    /**
     * IO_THREADS workers doing random writes (versioned pages), checked reads and discards on the
     * device, opening it around each batch, while the test thread resets and re-inits it.
     */
    private static final class Race {
        final Zram z;
        final boolean tolerateExceptions;
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        final LongAdder ok = new LongAdder();
        final LongAdder failed = new LongAdder();
        final LongAdder corrupt = new LongAdder();
        final LongAdder exceptions = new LongAdder();

        Race(Zram z, boolean tolerateExceptions) {
            this.z = z;
            this.tolerateExceptions = tolerateExceptions;
        }

        /** Runs up to {@code cycles} reset/init cycles, within {@code budgetNs}, until {@code enough} is positive; returns the cycles run. */
        int run(int cycles, long budgetNs, LongSupplier enough) throws InterruptedException {
            List<Thread> workers = new ArrayList<>();
            for (int cpu = 0; cpu < IO_THREADS; cpu++) {
                int c = cpu;
                workers.add(Thread.ofPlatform().daemon().name("zram-io-" + cpu).start(() -> work(c)));
            }
            long deadline = System.nanoTime() + budgetNs;
            int done = 0;
            try {
                while (done < cycles && enough.getAsLong() <= 0 && System.nanoTime() < deadline && error.get() == null) {
                    letSomeIoRun();
                    z.reset();
                    z.init(DISKSIZE);
                    done++;
                }
            } finally {
                stop.set(true);
                for (Thread t : workers) {
                    t.join(TimeUnit.SECONDS.toMillis(20));
                    if (t.isAlive()) {
                        throw new AssertionError(t.getName() + " hangs: " + this);
                    }
                }
            }
            return done;
        }

        /** Until a few I/Os succeeded on the fresh device, or 2 ms. */
        private void letSomeIoRun() {
            long target = ok.sum() + 8;
            long until = System.nanoTime() + 2_000_000;
            while (ok.sum() < target && System.nanoTime() < until && error.get() == null) {
                Thread.yield();
            }
        }

        private void work(int cpu) {
            SplittableRandom rnd = new SplittableRandom(cpu * 7919L + 1);
            byte[] page = new byte[Zram.PAGE_SIZE];
            byte[] scratch = new byte[Zram.PAGE_SIZE];
            try {
                while (!stop.get()) {
                    z.open();
                    try {
                        for (int i = 0; i < BATCH; i++) {
                            oneIo(cpu, rnd, page, scratch);
                        }
                    } finally {
                        z.release();
                    }
                }
            } catch (Throwable e) {
                error.compareAndSet(null, e);
            }
        }

        private void oneIo(int cpu, SplittableRandom rnd, byte[] page, byte[] scratch) {
            long index = rnd.nextInt(NR_PAGES);
            int op = rnd.nextInt(10);
            try {
                boolean done;
                if (op < 5) {
                    Pages.fill(page, index, 1 + rnd.nextInt(0xFFFF));
                    done = z.write(index, page, cpu);
                } else if (op < 9) {
                    done = z.read(index, page, cpu);
                    if (done && !Pages.isValid(page, index, scratch)) {
                        corrupt.increment();
                    }
                } else {
                    done = z.discard(index, cpu);
                }
                (done ? ok : failed).increment();
            } catch (RuntimeException e) {
                if (!tolerateExceptions) {
                    throw e;
                }
                exceptions.increment();
            }
        }

        @Override
        public String toString() {
            return "Race[ok=" + ok + ", failed=" + failed + ", corrupt=" + corrupt + ", exceptions=" + exceptions + "]";
        }
    }
}
