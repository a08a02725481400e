package lab.bridge.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import lab.bridge.ffi.Errno;
import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.bridge.ffi.UringSupport;
import lab.jobspec.IoEngine;
import lab.jobspec.Job;
import lab.jobspec.JobFileParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writes known patterns at scattered offsets of an O_DIRECT file through each engine
 * configuration, reads them back through the same engine, and compares the bytes. The file
 * lives under the module's {@code target/} (tmpfs, where @TempDir may land, has no O_DIRECT).
 */
class EngineRoundTripTest {
    private static final int BS = 4096;
    private static final int BLOCKS = 64;

    private static final Map<IoEngine, Class<?>> ENGINE_CLASSES = Map.of(
            IoEngine.PSYNC, PsyncEngine.class, IoEngine.SYNC, SyncEngine.class, IoEngine.PVSYNC, PvsyncEngine.class,
            IoEngine.IO_URING, UringEngine.class, IoEngine.LIBAIO, LibaioEngine.class);

    private Path dir;
    private Path file;

    @BeforeEach
    void createFile() throws IOException {
        Path target = Path.of("target");
        Files.createDirectories(target);
        dir = Files.createTempDirectory(target, "engine-test");
        file = dir.resolve("data");
    }

    @AfterEach
    void removeFile() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    /** Opens {@code file} with O_DIRECT, or skips where the file system refuses it. */
    private int openDirect(int mode) throws ErrnoException {
        try {
            return Libc.open(file.toString(), mode | Libc.O_CREAT | Libc.O_DIRECT | Libc.O_CLOEXEC, 0600);
        } catch (ErrnoException e) {
            Assumptions.assumeTrue(e.errno() != Errno.EINVAL, () -> "no O_DIRECT on " + dir + ": " + e.getMessage());
            throw e;
        }
    }

    private Job job(String lines) throws Exception {
        Path jobFile = Files.createTempFile(dir, "job", ".fio");
        try {
            Files.writeString(jobFile, "[j]\nbs=" + BS + "\nsize=" + (BLOCKS * BS) + "\n" + lines + "\n");
            return JobFileParser.parse(jobFile).jobs().get(0);
        } finally {
            Files.delete(jobFile);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "ioengine=io_uring",
            "ioengine=io_uring\nfixedbufs=1",
            "ioengine=io_uring\nregisterfiles=1",
            "ioengine=io_uring\nfixedbufs=1\nregisterfiles=1\niodepth=8",
            "ioengine=io_uring\niodepth=8",
            "ioengine=io_uring\nsqthread_poll=1\niodepth=8",
            "ioengine=psync",
            "ioengine=psync\niodepth=8",
            "ioengine=sync",
            "ioengine=pvsync\niodepth=4",
            "ioengine=libaio",
            "ioengine=libaio\niodepth=8",
            "ioengine=libaio\niodepth=8\nuserspace_reap=1",
            "ioengine=libaio\niodepth=16\niodepth_batch_complete_max=3"})
    void patternsWrittenReadBackIdentical(String options) throws Exception {
        Job job = job(options);
        if (job.ioengine() == lab.jobspec.IoEngine.IO_URING) {
            UringSupport.assumeIoUring();
        }
        // Blocks in a scattered order, every one written once; offsets far apart and adjacent.
        int[] order = new int[BLOCKS];
        for (int i = 0; i < BLOCKS; i++) {
            order[i] = (i * 37) % BLOCKS;
        }
        int fd = openDirect(Libc.O_RDWR);
        try (BridgeEngine engine = BridgeEngines.open(job, fd)) {
            assertEquals(ENGINE_CLASSES.get(job.ioengine()), engine.getClass());
            run(engine, job.queueDepth(), order, false);
            run(engine, job.queueDepth(), order, true);
        } finally {
            Libc.close(fd);
        }
        assertEquals((long) BLOCKS * BS, Files.size(file));
        byte[] all = Files.readAllBytes(file);
        for (int block = 0; block < BLOCKS; block++) {
            for (int i = 0; i < BS; i += 512) {
                assertEquals(pattern(block, i), all[block * BS + i], "block " + block + " byte " + i);
            }
        }
    }

    /**
     * A request's own I/O priority (fio's cmdprio_*) reaches the kernel: io_uring and libaio take
     * an idle-class read (3 << 13), and refuse a class the kernel does not have (7 << 13) with
     * EINVAL from ioprio_check_cap(): the field is read, not dropped.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"io_uring", "libaio"})
    void aRequestsOwnPriorityReachesTheKernel(String engineName) throws Exception {
        Job job = job("ioengine=" + engineName + "\niodepth=2");
        if (job.ioengine() == IoEngine.IO_URING) {
            UringSupport.assumeIoUring();
        }
        int fd = openDirect(Libc.O_RDWR);
        try (BridgeEngine engine = BridgeEngines.open(job, fd)) {
            Libc.pwrite(fd, engine.buffer(0), BS, 0);
            List<Integer> results = new ArrayList<>();
            engine.queue(0, 0, true, 0, BS, Job.Placement.ioprio(3, 0));
            assertEquals(1, engine.submit());
            engine.reap(1, (tag, res) -> results.add(res));
            assertEquals(List.of(BS), results, "an idle-class read completes");
            results.clear();
            engine.queue(1, 0, true, 0, BS, 7 << 13);
            try {
                engine.submit();
                engine.reap(1, (tag, res) -> results.add(res));
                assertEquals(List.of(-Errno.EINVAL), results, "class 7: the kernel refuses the request");
            } catch (BridgeIoException e) {
                assertEquals(Errno.EINVAL, e.errno(), "class 7: io_submit refuses it: " + e.getMessage());
            }
        } finally {
            Libc.close(fd);
        }
    }

    /**
     * Moves every block of {@code order} through {@code engine}, keeping up to {@code depth}
     * I/Os in flight in batches of up to half the depth; on reads checks each block's bytes.
     */
    private static void run(BridgeEngine engine, int depth, int[] order, boolean read) throws Exception {
        List<Integer> free = new ArrayList<>();
        for (int t = 0; t < depth; t++) {
            free.add(t);
        }
        int[] blockOfTag = new int[depth];
        int next = 0;
        int done = 0;
        int batch = Math.max(1, depth / 2);
        List<String> errors = new ArrayList<>();
        while (done < order.length) {
            int queued = 0;
            while (next < order.length && !free.isEmpty() && queued < batch) {
                int tag = free.removeLast();
                int block = order[next++];
                blockOfTag[tag] = block;
                MemorySegment buf = engine.buffer(tag);
                assertEquals(0, buf.address() % 4096, "buffer alignment");
                if (read) {
                    buf.fill((byte) 0x55);
                } else {
                    for (int i = 0; i < BS; i++) {
                        buf.set(ValueLayout.JAVA_BYTE, i, pattern(block, i));
                    }
                }
                engine.queue(tag, read, (long) block * BS, BS);
                queued++;
            }
            assertEquals(queued, engine.submit());
            int reaped = engine.reap(1, (tag, res) -> {
                if (res != BS) {
                    errors.add("block " + blockOfTag[tag] + ": res " + res + " " + Errno.name(res));
                }
                if (read) {
                    MemorySegment buf = engine.buffer(tag);
                    for (int i = 0; i < BS; i++) {
                        if (buf.get(ValueLayout.JAVA_BYTE, i) != pattern(blockOfTag[tag], i)) {
                            errors.add("block " + blockOfTag[tag] + " differs at byte " + i);
                            break;
                        }
                    }
                }
                free.add(tag);
            });
            assertTrue(reaped >= 1, "reap(1) returned " + reaped);
            done += reaped;
            assertEquals(List.of(), errors);
        }
    }

    private static byte pattern(int block, int i) {
        return (byte) (block * 31 + i * 7 + (i >> 8));
    }

    @Test
    void readOnWriteOnlyFdCompletesWithEBADF() throws Exception {
        UringSupport.assumeIoUring();
        Files.write(file, new byte[BS]);
        int fd = Libc.open(file.toString(), Libc.O_WRONLY);
        try (BridgeEngine engine = BridgeEngines.open(job("ioengine=io_uring"), fd)) {
            engine.queue(0, true, 0, BS);
            assertEquals(1, engine.submit());
            int[] got = new int[2];
            assertEquals(1, engine.reap(1, (tag, res) -> {
                got[0] = tag + 1;
                got[1] = res;
            }));
            assertEquals(1, got[0], "tag 0 came back");
            assertEquals(-Errno.EBADF, got[1]);
            assertEquals("EBADF", Errno.name(got[1]));
        } finally {
            Libc.close(fd);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"psync", "sync", "pvsync", "libaio"})
    void readOnWriteOnlyFdCompletesWithEBADF(String engineName) throws Exception {
        Files.write(file, new byte[BS]);
        int fd = Libc.open(file.toString(), Libc.O_WRONLY);
        try (BridgeEngine engine = BridgeEngines.open(job("ioengine=" + engineName), fd)) {
            engine.queue(0, true, 0, BS);
            assertEquals(1, engine.submit());
            int[] res = {0};
            assertEquals(1, engine.reap(1, (tag, r) -> res[0] = r));
            assertEquals("EBADF", Errno.name(res[0]));
            assertEquals(-Errno.EBADF, res[0]);
        } finally {
            Libc.close(fd);
        }
    }

    @Test
    void readsPastEndOfFileAreShort() throws Exception {
        Files.write(file, new byte[BS + 100]);
        for (String engineName : new String[] {"psync", "sync", "pvsync", "io_uring", "libaio"}) {
            if (engineName.equals("io_uring")) {
                UringSupport.assumeIoUring();
            }
            int fd = Libc.open(file.toString(), Libc.O_RDONLY);
            try (BridgeEngine engine = BridgeEngines.open(job("ioengine=" + engineName), fd)) {
                engine.queue(0, true, BS, BS);
                engine.submit();
                int[] res = {-1};
                assertEquals(1, engine.reap(1, (tag, r) -> res[0] = r));
                assertEquals(100, res[0], engineName);
            } finally {
                Libc.close(fd);
            }
        }
    }

    @Test
    void reapWithNothingInFlightReturnsAtOnce() throws Exception {
        UringSupport.assumeIoUring();
        Files.write(file, new byte[BS]);
        int fd = Libc.open(file.toString(), Libc.O_RDONLY);
        try (BridgeEngine engine = BridgeEngines.open(job("ioengine=io_uring"), fd)) {
            assertEquals(0, engine.submit());
            assertEquals(0, engine.reap(4, (tag, r) -> { }), "min is clamped to what is in flight");
        } finally {
            Libc.close(fd);
        }
    }

    /** fio's sync engine seeks only when an I/O does not start where the last one ended. */
    @Test
    void syncSeeksOnlyWhenTheOffsetJumps() throws Exception {
        Files.write(file, new byte[4 * BS]);
        int fd = Libc.open(file.toString(), Libc.O_RDWR);
        try (SyncEngine engine = (SyncEngine) BridgeEngines.open(job("ioengine=sync"), fd)) {
            for (long block : new long[] {0, 1, 2, 0, 3}) {
                engine.queue(0, block % 2 == 0, block * BS, BS);
                engine.submit();
                int[] res = {0};
                engine.reap(1, (tag, r) -> res[0] = r);
                assertEquals(BS, res[0], "block " + block);
            }
            assertEquals(3, engine.seeks(), "the first I/O, the jump back to 0, the jump to 3");
        } finally {
            Libc.close(fd);
        }
    }

    /** With several files each keeps its own position (fio's per-file last_pos): alternating sequential files never seek. */
    @Test
    void syncKeepsAPositionPerFile() throws Exception {
        Path other = Files.createTempFile(dir.getParent(), "engine-test-other", ".dat");
        Files.write(file, new byte[4 * BS]);
        Files.write(other, new byte[4 * BS]);
        int fd0 = Libc.open(file.toString(), Libc.O_RDWR);
        int fd1 = Libc.open(other.toString(), Libc.O_RDWR);
        try (SyncEngine engine = (SyncEngine) BridgeEngines.open(job("ioengine=sync"), new int[] {fd0, fd1})) {
            engine.buffer(0).fill((byte) 7);
            for (long block = 0; block < 4; block++) {
                for (int f = 0; f < 2; f++) {
                    engine.queue(0, f, false, block * BS, BS);
                    engine.submit();
                    engine.reap(1, (tag, r) -> assertEquals(BS, r));
                }
            }
            assertEquals(2, engine.seeks(), "each file's first I/O only");
        } finally {
            Libc.close(fd0);
            Libc.close(fd1);
        }
        byte[] a = Files.readAllBytes(file);
        byte[] b = Files.readAllBytes(other);
        Files.delete(other);
        for (int i = 0; i < 4 * BS; i += BS / 2) {
            assertEquals(7, a[i], "file 0 at " + i);
            assertEquals(7, b[i], "file 1 at " + i);
        }
    }

    /** userspace_reap: a reap with nothing to wait for reads the ring in user memory, and finds what completed. */
    @Test
    void libaioUserspaceReapFindsCompletionsWithoutWaiting() throws Exception {
        Files.write(file, new byte[8 * BS]);
        int fd = openDirect(Libc.O_RDWR);
        try (LibaioEngine engine = (LibaioEngine) BridgeEngines.open(job("ioengine=libaio\niodepth=8\nuserspace_reap=1"),
                fd)) {
            for (int tag = 0; tag < 8; tag++) {
                engine.queue(tag, true, (long) tag * BS, BS);
            }
            assertEquals(8, engine.submit());
            int[] got = {0};
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (got[0] < 8 && System.nanoTime() < deadline) {
                engine.reap(0, (tag, r) -> {
                    assertEquals(BS, r);
                    got[0]++;
                });
            }
            assertEquals(8, got[0]);
            assertTrue(engine.userReaps() > 0, "reaped from the user-space ring");
            assertEquals(0, engine.inflight());
        } finally {
            Libc.close(fd);
        }
    }

    /** Closing a libaio engine with I/Os in flight waits for them before it frees the buffers. */
    @Test
    void libaioCloseWithIosInFlightDrainsThem() throws Exception {
        Files.write(file, new byte[8 * BS]);
        int fd = openDirect(Libc.O_RDWR);
        try {
            LibaioEngine engine = (LibaioEngine) BridgeEngines.open(job("ioengine=libaio\niodepth=8"), fd);
            for (int tag = 0; tag < 8; tag++) {
                engine.queue(tag, false, (long) tag * BS, BS);
            }
            assertEquals(8, engine.submit());
            engine.close();
            Teardown t = engine.teardown();
            assertEquals(0, engine.inflight());
            assertTrue(t.freed(), t.toString());
            assertEquals(t.inFlight(), t.completed(), t.toString());
            engine.close(); // idempotent
        } finally {
            Libc.close(fd);
        }
    }

    /** reap(min 1, max 1) hands over one completion a call, as fio's getevents(1, 1), leaving the rest for later calls. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"io_uring", "libaio"})
    void maxCapsWhatOneReapHandsOver(String engineName) throws Exception {
        if (engineName.equals("io_uring")) {
            UringSupport.assumeIoUring();
        }
        Files.write(file, new byte[8 * BS]);
        int fd = openDirect(Libc.O_RDWR);
        try (BridgeEngine engine = BridgeEngines.open(job("ioengine=" + engineName + "\niodepth=8"), fd)) {
            for (int tag = 0; tag < 8; tag++) {
                engine.queue(tag, true, (long) tag * BS, BS);
            }
            assertEquals(8, engine.submit());
            List<Integer> tags = new ArrayList<>();
            for (int call = 0; call < 8; call++) {
                assertEquals(1, engine.reap(1, 1, (tag, r) -> tags.add(tag)), "call " + call);
            }
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), tags.stream().sorted().toList());
            assertEquals(0, engine.reap(1, 1, (tag, r) -> tags.add(tag)), "nothing left in flight");
        } finally {
            Libc.close(fd);
        }
    }
}
