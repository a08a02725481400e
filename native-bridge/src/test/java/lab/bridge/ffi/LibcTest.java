package lab.bridge.ffi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibcTest {
    @TempDir
    Path dir;

    /**
     * {@link Libc#unshareCreds()} gives the thread a new {@code struct cred} with the same contents:
     * the keep-capabilities flag it goes through is what the thread had, 0 or 1. (Whether the
     * object is new is not visible from user space; the bridge's perf profile shows it.) Runs on a
     * thread of its own, whose credentials die with it.
     */
    @Test
    void unshareCredsKeepsWhatTheThreadHad() throws Exception {
        int[] seen = new int[4];
        Throwable[] failed = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                seen[0] = Libc.keepCaps();
                Libc.unshareCreds();
                seen[1] = Libc.keepCaps();
                Libc.setKeepCaps(1);
                Libc.unshareCreds();
                seen[2] = Libc.keepCaps();
                Libc.setKeepCaps(0);
                seen[3] = Libc.keepCaps();
            } catch (Throwable e) {
                failed[0] = e;
            }
        });
        t.start();
        t.join();
        if (failed[0] != null) {
            throw new AssertionError(failed[0]);
        }
        assertArrayEquals(new int[] {0, 0, 1, 0}, seen);
    }

    @Test
    void setKeepCapsOutOfRangeNamesEINVAL() {
        ErrnoException e = assertThrows(ErrnoException.class, () -> Libc.setKeepCaps(2));
        assertEquals("prctl(PR_SET_KEEPCAPS, 2): EINVAL (Invalid argument)", e.getMessage());
    }

    @Test
    void openOfMissingPathNamesENOENT() {
        String path = dir.resolve("missing").toString();
        ErrnoException e = assertThrows(ErrnoException.class, () -> Libc.open(path, Libc.O_RDONLY));
        assertEquals(Errno.ENOENT, e.errno());
        assertEquals("ENOENT", e.errnoName());
        assertEquals("open(" + path + "): ENOENT (No such file or directory)", e.getMessage());
    }

    @Test
    void closeOfBadFdNamesEBADF() {
        ErrnoException e = assertThrows(ErrnoException.class, () -> Libc.close(1 << 20));
        assertEquals("EBADF", e.errnoName());
    }

    @Test
    void fstatTellsRegularFileFromCharDevice() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[12345]);
        int fd = Libc.open(file.toString(), Libc.O_RDONLY | Libc.O_CLOEXEC);
        try {
            Stat st = Libc.fstat(fd);
            assertTrue(st.isRegularFile());
            assertFalse(st.isBlockDevice());
            assertEquals(12345, st.size());
            assertEquals(0, st.rdev());
        } finally {
            Libc.close(fd);
        }
        int nul = Libc.open("/dev/null", Libc.O_RDONLY);
        try {
            Stat st = Libc.fstat(nul);
            assertTrue(st.isCharDevice());
            assertFalse(st.isRegularFile());
            assertFalse(st.isBlockDevice());
            assertEquals(1, st.major()); // mem devices
            assertEquals(3, st.minor()); // /dev/null
        } finally {
            Libc.close(nul);
        }
    }

    @Test
    void blockIoctlsOnRegularFileAnswerENOTTY() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[4096]);
        int fd = Libc.open(file.toString(), Libc.O_RDONLY);
        try {
            ErrnoException size = assertThrows(ErrnoException.class, () -> Libc.blkGetSize64(fd));
            assertEquals("ENOTTY", size.errnoName());
            assertTrue(size.getMessage().startsWith("ioctl(BLKGETSIZE64)(fd " + fd + "): ENOTTY"), size.getMessage());
            ErrnoException ssz = assertThrows(ErrnoException.class, () -> Libc.blkSszGet(fd));
            assertEquals(Errno.ENOTTY, ssz.errno());
        } finally {
            Libc.close(fd);
        }
    }

    @Test
    void pwriteThenPreadRoundTrips() throws Exception {
        Path file = dir.resolve("rw");
        int fd = Libc.open(file.toString(), Libc.O_RDWR | Libc.O_CREAT | Libc.O_EXCL, 0600);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(100);
            for (int i = 0; i < 100; i++) {
                out.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7));
            }
            assertEquals(100, Libc.pwrite(fd, out, 100, 1000));
            MemorySegment in = arena.allocate(200);
            assertEquals(100, Libc.pread(fd, in, 200, 1000), "short read at end of file");
            assertArrayEquals(out.toArray(ValueLayout.JAVA_BYTE), in.asSlice(0, 100).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(0, Libc.pread(fd, in, 200, 5000), "0 bytes past end of file");
            assertEquals(1100, Libc.fstat(fd).size());
        } finally {
            Libc.close(fd);
        }
    }

    @Test
    void preadRefusesHeapSegmentsAndOversizedLengths() throws Exception {
        int fd = Libc.open("/dev/zero", Libc.O_RDONLY);
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> Libc.pread(fd, MemorySegment.ofArray(new byte[8]), 8, 0));
            assertThrows(IndexOutOfBoundsException.class, () -> Libc.pread(fd, arena.allocate(8), 9, 0));
        } finally {
            Libc.close(fd);
        }
    }

    @Test
    void preadOnWriteOnlyFdNamesEBADF() throws Exception {
        Path file = Files.write(dir.resolve("w"), new byte[10]);
        int fd = Libc.open(file.toString(), Libc.O_WRONLY);
        try (Arena arena = Arena.ofConfined()) {
            ErrnoException e = assertThrows(ErrnoException.class, () -> Libc.pread(fd, arena.allocate(10), 10, 0));
            assertEquals("EBADF", e.errnoName());
        } finally {
            Libc.close(fd);
        }
    }

    @Test
    void schedGetcpuIsAnOnlineCpu() {
        int nproc = Runtime.getRuntime().availableProcessors();
        int cpu = Libc.schedGetcpu();
        assertTrue(cpu >= 0, "cpu " + cpu);
        // availableProcessors honours the affinity mask and cgroup quota; the cpu number
        // is bounded by the online CPUs, which are at least that many.
        assertTrue(cpu < Math.max(nproc, onlineCpus()), "cpu " + cpu + " of " + nproc);
    }

    @Test
    void schedSetaffinityPinsTheCallingThread() throws Exception {
        int target = Libc.schedGetcpu();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                Libc.schedSetaffinity(target);
                for (int i = 0; i < 1000; i++) {
                    assertEquals(target, Libc.schedGetcpu());
                    Thread.yield();
                }
            } catch (ErrnoException e) {
                throw new AssertionError(e);
            }
        });
        t.join();
        assertThrows(ErrnoException.class, () -> Libc.schedSetaffinity(-1));
    }

    @Test
    void getrusageShowsCpuTimeGrowing() throws Exception {
        Rusage before = Libc.getrusage(Libc.RUSAGE_THREAD);
        long sink = 0;
        long end = System.nanoTime() + 200_000_000L;
        while (System.nanoTime() < end) {
            sink += Long.numberOfTrailingZeros(sink + System.nanoTime());
        }
        Rusage after = Libc.getrusage(Libc.RUSAGE_THREAD);
        long cpu = (after.utimeNs() + after.stimeNs()) - (before.utimeNs() + before.stimeNs());
        assertTrue(cpu >= 50_000_000L, "thread CPU grew by only " + cpu + " ns (sink " + sink + ")");
        Rusage self = Libc.getrusage(Libc.RUSAGE_SELF);
        assertTrue(self.utimeNs() + self.stimeNs() >= after.utimeNs() + after.stimeNs());
        assertTrue(self.minflt() > 0);
        assertEquals("EINVAL", assertThrows(ErrnoException.class, () -> Libc.getrusage(42)).errnoName());
    }

    @Test
    void errnoTableNamesTheCommonValues() {
        assertEquals("EOPNOTSUPP", Errno.name(95));
        assertEquals("EOPNOTSUPP", Errno.name(-95));
        assertEquals(Errno.EOPNOTSUPP, Errno.ENOTSUP);
        assertEquals("EAGAIN", Errno.name(11));
        assertEquals("ECANCELED", Errno.name(125));
        assertEquals("ETIME", Errno.name(62));
        assertEquals("ERANGE", Errno.name(34));
        assertEquals("EPERM", Errno.name(1));
        assertEquals("Operation not supported", Errno.describe(95));
        assertEquals("errno 4000", Errno.name(4000));
        assertEquals("Unknown error 4000", Errno.describe(4000));
    }

    private static int onlineCpus() {
        try {
            String online = Files.readString(Path.of("/sys/devices/system/cpu/online")).trim();
            String last = online.substring(Math.max(online.lastIndexOf('-'), online.lastIndexOf(',')) + 1);
            return Integer.parseInt(last) + 1;
        } catch (Exception e) {
            return 1;
        }
    }
}
