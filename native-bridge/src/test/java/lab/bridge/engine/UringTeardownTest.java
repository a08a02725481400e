package lab.bridge.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import lab.bridge.ffi.Libc;
import lab.bridge.ffi.Stat;
import lab.bridge.ffi.TestZram;
import lab.bridge.ffi.UringSupport;
import lab.jobspec.Job;
import lab.jobspec.JobFileParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ring torn down with I/O in flight: {@link UringEngine#close()} waits for (or cancels) what the
 * kernel took before it frees a buffer, and leaves the buffers allocated when it cannot.
 *
 * <p>A FIFO holds reads in flight for as long as the test likes (io_uring arms a poll on it); on a
 * real device, a blk-throttle limit on the test thread's blkio cgroup keeps O_DIRECT reads queued
 * below zram for hundreds of milliseconds, long enough for freed buffers to be handed out again.
 */
class UringTeardownTest {

    private static final int BS = 4096;
    private static final int DEPTH = 8;

    @TempDir
    Path dir;

    private Job job(String extra) throws Exception {
        Path f = dir.resolve("j.fio");
        Files.writeString(f, "[j]\nioengine=io_uring\nbs=" + BS + "\niodepth=" + DEPTH + "\nsize=1m\n" + extra);
        return JobFileParser.parse(f).jobs().getFirst();
    }

    /** A FIFO opened read-write (Linux lets one descriptor hold both ends without blocking). */
    private int fifo() throws Exception {
        Path p = dir.resolve("fifo");
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assumeTrue(mk.waitFor() == 0, "mkfifo failed");
        return Libc.open(p.toString(), Libc.O_RDWR | Libc.O_CLOEXEC);
    }

    private static void queueReads(UringEngine e, int n) throws BridgeIoException {
        for (int tag = 0; tag < n; tag++) {
            e.buffer(tag).fill((byte) 0x11);
            e.queue(tag, true, (long) tag * BS, BS);
        }
        assertEquals(n, e.submit());
    }

    /** Reads armed on an empty FIFO are cancelled and reaped before the buffers go; none consumed data. */
    @Test
    void readsInFlightAreCancelledAndReapedBeforeTheBuffersAreFreed() throws Exception {
        UringSupport.assumeIoUring();
        int fd = fifo();
        try {
            UringEngine e = UringEngine.open(job(""), fd, new UringEngine.Drain(5_000_000_000L, true));
            queueReads(e, 4);
            assertEquals(4, e.inflight());
            e.close();
            Teardown t = e.teardown();
            assertEquals(4, t.inFlight(), t.toString());
            assertEquals(4, t.cancelled(), t.toString());
            assertEquals(0, t.abandoned(), t.toString());
            assertEquals(0, e.inflight());
            assertTrue(t.freed());
            assertTrue(t.describe().contains("4 cancelled"), t.describe());
            // every byte written now is still in the FIFO: no cancelled read took any
            byte[] data = new byte[4 * BS];
            java.util.Arrays.fill(data, (byte) 0x42);
            Files.write(dir.resolve("fifo"), data);
            try (var in = Files.newInputStream(dir.resolve("fifo"))) {
                assertArrayEquals(data, in.readNBytes(data.length));
            }
        } finally {
            Libc.close(fd);
        }
    }

    /** Reads that neither complete nor get cancelled within the budget leave their buffers allocated. */
    @Test
    void buffersOfReadsThatCannotBeDrainedAreLeakedNotFreed() throws Exception {
        UringSupport.assumeIoUring();
        int fd = fifo();
        try {
            UringEngine e = UringEngine.open(job(""), fd, new UringEngine.Drain(100_000_000L, false));
            queueReads(e, DEPTH);
            e.close();
            Teardown t = e.teardown();
            assertEquals(DEPTH, t.inFlight(), t.toString());
            assertEquals(DEPTH, t.abandoned(), t.toString());
            assertEquals((long) DEPTH * BS, t.leakedBytes());
            assertTrue(t.describe().contains("left allocated (leaked)"), t.describe());
            for (int tag = 0; tag < DEPTH; tag++) {
                assertEquals((byte) 0x11, e.buffer(tag).get(ValueLayout.JAVA_BYTE, BS - 1), "buffer " + tag + " alive");
            }
        } finally {
            Libc.close(fd);
        }
    }

    /**
     * As root, on a zram device of the test's own with its first blocks filled with 0x5A: eight
     * O_DIRECT reads held back by blk-throttle (10 reads/s for this thread's blkio cgroup), and
     * the engine closed while they wait there. The buffers come from a {@link PoisonArena}: its close fills them
     * with 0xA5 and keeps them mapped, so any read that lands after the engine let its buffers go
     * shows as 0x5A where the poison was. Without the drain, close frees at once and the throttled
     * reads land in the poison some 100-700 ms later.
     */
    @Test
    void throttledDirectReadsInFlightNeverLandInFreedBuffers() throws Exception {
        UringSupport.assumeIoUring();
        Path blkio = Path.of("/sys/fs/cgroup/blkio");
        assumeTrue(Files.exists(blkio.resolve("blkio.throttle.read_iops_device")),
                "no blkio v1 with blk-throttle at " + blkio);
        Path cg = blkio.resolve("lab-teardown-test-" + ProcessHandle.current().pid());
        try (TestZram z = TestZram.add("16M")) {
            String dev = z.dev;
            fill(dev, (byte) 0x5A);
            Stat st = z.stat();
            Files.createDirectory(cg);
            Files.writeString(cg.resolve("blkio.throttle.read_iops_device"), st.major() + ":" + st.minor() + " 10");

            AtomicReference<Object> result = new AtomicReference<>();
            Job job = job("direct=1\n");
            Thread t = Thread.ofPlatform().name("teardown-under-throttle").start(() -> {
                try {
                    Files.writeString(cg.resolve("tasks"), tid());
                    result.set(closeWithReadsInFlight(job, dev));
                } catch (Throwable e) {
                    result.set(e);
                }
            });
            t.join(); // the thread's exit ends its io-wq workers too
            if (result.get() instanceof Throwable e) {
                throw new AssertionError("the throttled run failed", e);
            }
            Outcome o = (Outcome) result.get();
            assertEquals(DEPTH, o.teardown().inFlight(), o.teardown().toString());
            assertEquals(0, o.teardown().abandoned(), o.teardown().toString());
            // the premise: the reads were past cancelling, and the drain waited out the throttle
            assertEquals(DEPTH, o.teardown().completed(), o.teardown().toString());
            assertTrue(o.teardown().drainNs() > 200_000_000L, o.teardown().toString());
            assertTrue(o.poisoned(), "the engine freed its buffers");
            byte[] poison = new byte[o.after().length];
            java.util.Arrays.fill(poison, PoisonArena.POISON);
            assertArrayEquals(poison, o.after(), "a read landed in buffers the engine had freed");
        } finally {
            removeCgroup(cg);
        }
    }

    private record Outcome(Teardown teardown, boolean poisoned, byte[] after) {
    }

    /** On this (throttled) thread: 8 reads in flight, close, wait past the throttle, read the poison. */
    private static Outcome closeWithReadsInFlight(Job job, String dev) throws Exception {
        int fd = Libc.open(dev, Libc.O_RDONLY | Libc.O_DIRECT | Libc.O_CLOEXEC);
        try {
            PoisonArena arena = new PoisonArena();
            UringEngine e = UringEngine.open(job, fd, UringEngine.Drain.DEFAULT, () -> arena);
            queueReads(e, DEPTH);
            // io-wq takes the reads from its queue within microseconds; until then exiting the
            // ring cancels them instead, and no buffer is at risk. Give it 100 ms: then every
            // read is a bio queued in the throttle, which nothing can cancel.
            Thread.sleep(100);
            e.close();
            Thread.sleep(1500);             // longer than 8 reads at 10/s
            return new Outcome(e.teardown(), arena.poisoned(), arena.contents());
        } finally {
            Libc.close(fd);
        }
    }

    /**
     * An arena whose close poisons what it gave out (0xA5) instead of freeing it, and keeps it
     * mapped, so that a write after the close shows; the memory itself is the test's, freed when
     * the test ends.
     */
    private static final class PoisonArena implements Arena {
        static final byte POISON = (byte) 0xA5;
        private final Arena backing = Arena.ofAuto();
        private MemorySegment given;
        private boolean poisoned;

        @Override
        public MemorySegment allocate(long byteSize, long byteAlignment) {
            given = backing.allocate(byteSize, byteAlignment);
            return given;
        }

        @Override
        public MemorySegment.Scope scope() {
            return backing.scope();
        }

        @Override
        public void close() {
            given.fill(POISON);
            poisoned = true;
        }

        boolean poisoned() {
            return poisoned;
        }

        byte[] contents() {
            return given.toArray(ValueLayout.JAVA_BYTE);
        }
    }

    private static void fill(String dev, byte b) throws IOException {
        byte[] block = new byte[DEPTH * BS];
        java.util.Arrays.fill(block, b);
        try (var ch = java.nio.channels.FileChannel.open(Path.of(dev), java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(block), 0);
            ch.force(true);
        }
    }

    private static String tid() throws IOException {
        return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
    }

    /** rmdir, retried while the thread's io-wq workers finish exiting. */
    private static void removeCgroup(Path cg) throws Exception {
        for (int i = 0; Files.exists(cg); i++) {
            try {
                Files.delete(cg);
            } catch (IOException e) {
                if (i == 100) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }
}
