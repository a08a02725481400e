package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.assumeDirect;
import static lab.bridge.run.BridgeTesting.jobs;
import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import lab.bridge.engine.BridgeEngine;
import lab.bridge.engine.BridgeEngines;
import lab.jobspec.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Everything that must stop a run before its first I/O, with a message that says what to fix. */
class BridgeRunSetupTest {

    @TempDir
    Path dir;

    private static final EngineFactory NO_ENGINE = (job, fd) -> {
        throw new AssertionError("a refused run must not get as far as making an engine");
    };

    private static BridgeRun.Options options(String filename) {
        return new BridgeRun.Options(filename, false, DeviceOwnership.registry(), NO_ENGINE);
    }

    private static String setupError(List<Job> jobs, BridgeRun.Options o) {
        return assertThrows(BridgeSetupException.class, () -> run(jobs, o)).getMessage();
    }

    @Test
    void noTargetNamesBothWaysToGiveOne() throws Exception {
        String m = setupError(jobs(dir, "a.fio", "[a]\nrw=read\nsize=1m\n"), options(null));
        assertTrue(m.contains("job 'a'") && m.contains("--filename") && m.contains("filename="), m);
    }

    @Test
    void missingTargetIsNamed() throws Exception {
        Path gone = dir.resolve("gone.img");
        String m = setupError(jobs(dir, "a.fio", "[a]\nrw=read\nsize=1m\nfilename=" + gone + "\n"), options(null));
        assertTrue(m.contains(gone.toString()) && m.contains("no such file or device"), m);
    }

    @Test
    void filenameOptionOverridesTheJobFile() throws Exception {
        Path gone = dir.resolve("other.img");
        String m = setupError(jobs(dir, "a.fio", "[a]\nrw=read\nsize=1m\nfilename=/nonexistent\n"),
                options(gone.toString()));
        assertTrue(m.contains(gone.toString()), m);
    }

    @Test
    void readJobLargerThanItsFileNamesBothSizes() throws Exception {
        Path f = dir.resolve("small.img");
        Files.write(f, new byte[1 << 20]);
        String m = setupError(jobs(dir, "a.fio", "[a]\nrw=randread\nsize=4m\noffset=4k\nfilename=" + f + "\n"),
                options(null));
        assertTrue(m.contains("is 1048576 bytes") && m.contains("= 4198400 bytes"), m);
    }

    @Test
    void misalignedDirectIoIsCaughtBeforeSubmission() throws Exception {
        Path f = dir.resolve("aligned.img");
        Files.write(f, new byte[1 << 20]);
        assumeDirect(f);
        String m = setupError(jobs(dir, "a.fio", "[a]\nrw=randread\nbs=1000\nsize=512k\ndirect=1\nfilename=" + f + "\n"),
                options(null));
        assertTrue(m.contains("logical block size") && m.contains("(512 bytes)") && m.contains("bs=1000")
                && m.contains("bs=1024"), m);
    }

    @Test
    void misalignedOffsetWithDirectIsCaught() throws Exception {
        Path f = dir.resolve("aligned.img");
        Files.write(f, new byte[1 << 20]);
        assumeDirect(f);
        String m = setupError(jobs(dir, "a.fio", "[a]\nrw=read\nbs=4k\noffset=100\nsize=512k\ndirect=1\nfilename=" + f + "\n"),
                options(null));
        assertTrue(m.contains("offset=100"), m);
    }

    @Test
    void laterJobsBadTargetStopsTheWholeFileBeforeAnyOpenForWrite() throws Exception {
        Path ok = dir.resolve("ok.img");
        Files.write(ok, new byte[4096]);
        List<Job> js = jobs(dir, "a.fio", "[w]\nrw=write\nsize=1m\nfilename=" + ok + "\n\n[r]\nrw=read\nsize=1m\nfilename="
                + dir.resolve("none.img") + "\n");
        setupError(js, options(null));
        assertEquals(4096, Files.size(ok), "the first job's file must not have been extended");
    }

    /** The node of the block device the root file system is mounted from; skips where there is none. */
    private static String rootDisk() throws IOException {
        String devno = null;
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String[] f = line.split(" ");
            if (f.length > 4 && f[4].equals("/")) {
                devno = f[2];
            }
        }
        assumeTrue(devno != null && !devno.startsWith("0:"), "/ is not on a block device here: " + devno);
        String devname = null;
        Path uevent = Path.of("/sys/dev/block", devno, "uevent");
        if (Files.exists(uevent)) {
            for (String line : Files.readAllLines(uevent)) {
                if (line.startsWith("DEVNAME=")) {
                    devname = line.substring("DEVNAME=".length());
                }
            }
        }
        assumeTrue(devname != null && Files.exists(Path.of("/dev", devname)), "no device node for " + devno);
        return "/dev/" + devname;
    }

    /**
     * The root file system's disk is not in the lab's registry: a write job is refused, naming the
     * registry, and the device is never opened (the ownership rule runs before any open).
     */
    @Test
    void writeToTheRootDiskIsRefusedBeforeAnyOpen() throws Exception {
        String dev = rootDisk();
        AtomicInteger asked = new AtomicInteger();
        Path registry = Files.writeString(dir.resolve("registry"), "zram\tzram9\t-\n");
        DeviceOwnership live = new RegistryOwnership(registry, Path.of("/sys/dev/block"), Path.of("/nonexistent"));
        DeviceOwnership counting = (p, maj, min) -> {
            asked.incrementAndGet();
            return live.refusal(p, maj, min);
        };
        List<Job> js = jobs(dir, "w.fio", "[w]\nrw=randwrite\nsize=4k\nioengine=psync\nfilename=" + dev + "\n");
        BridgeSetupException e = assertThrows(BridgeSetupException.class,
                () -> run(js, new BridgeRun.Options(null, false, counting, NO_ENGINE)));
        assertEquals(1, asked.get());
        assertTrue(e.getMessage().contains("refusing to write to block device " + dev)
                && e.getMessage().contains("Nothing was written") && e.getMessage().contains("--i-own-this-device"),
                e.getMessage());
    }

    /**
     * As root, with --i-own-this-device: the mounted root disk is still refused, by its O_EXCL
     * open (EBUSY), which names the mount; no engine is ever made.
     */
    @Test
    void mountedDiskIsRefusedEvenWithTheOverride() throws Exception {
        BridgeTesting.assumeRoot();
        String dev = rootDisk();
        DeviceOwnership never = (p, maj, min) -> fail("the override must not ask the ownership rule");
        List<Job> js = jobs(dir, "w.fio", "[w]\nrw=randwrite\nsize=4k\nioengine=psync\nfilename=" + dev + "\n");
        String m = assertThrows(BridgeSetupException.class,
                () -> run(js, new BridgeRun.Options(null, true, never, NO_ENGINE))).getMessage();
        assumeTrue(!m.contains("EPERM"), () -> "opening " + dev + " for writing is forbidden here before O_EXCL"
                + " is reached (a device cgroup): " + m);
        assertTrue(m.contains("holds it exclusively (open with O_EXCL: EBUSY)") && m.contains("mounted at /")
                && m.contains("does not lift this"), m);
    }

    @Test
    void readsOfADeviceNeverAskTheOwnershipRule() throws Exception {
        Path f = dir.resolve("r.img");
        Files.write(f, new byte[8192]);
        List<Job> js = jobs(dir, "r.fio", "[r]\nrw=read\nsize=8k\nfilename=" + f + "\n");
        DeviceOwnership never = (p, maj, min) -> fail("asked about a read");
        BridgeTesting.Outcome o = run(js, new BridgeRun.Options(null, false, never, BridgeEngines::open));
        assertEquals(2, o.report().jobs().getFirst().read().totalIos());
    }

    /** A clone that cannot make its engine stops the run before any clone submits anything. */
    @Test
    void engineSetupFailureStopsEveryCloneBeforeTheirFirstIo() throws Exception {
        Path f = dir.resolve("e.img");
        Files.write(f, new byte[1 << 20]);
        List<Job> js = jobs(dir, "e.fio", "[e]\nrw=randread\nsize=1m\nnumjobs=3\nfilename=" + f + "\n");
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger queued = new AtomicInteger();
        EngineFactory third = (job, fd) -> {
            if (opened.incrementAndGet() == 3) {
                throw new IOException("ring refused (test)");
            }
            return new CountingEngine(job.bs(), job.iodepth(), queued);
        };
        String m = assertThrows(BridgeSetupException.class,
                () -> run(js, new BridgeRun.Options(null, false, DeviceOwnership.registry(), third))).getMessage();
        assertTrue(m.contains("ring refused (test)") && m.contains("cannot set up ioengine=psync"), m);
        assertEquals(0, queued.get());
    }

    @Test
    void ownershipRefusalIsSkippedOnlyWithTheOverride() throws Exception {
        // regular files never ask; the rule itself is covered by RegistryOwnershipTest and the zram test
        DeviceOwnership refuse = (p, maj, min) -> Optional.of("test says no");
        Path f = dir.resolve("w.img");
        Files.write(f, new byte[8192]);
        List<Job> js = jobs(dir, "w.fio", "[w]\nrw=write\nsize=8k\nfilename=" + f + "\n");
        BridgeTesting.Outcome o = run(js, new BridgeRun.Options(null, false, refuse, BridgeEngines::open));
        assertEquals(2, o.report().jobs().getFirst().write().totalIos());
    }

    /** An engine that only counts what is queued. */
    private record CountingEngine(MemorySegment all, int bs, AtomicInteger queued) implements BridgeEngine {
        CountingEngine(int bs, int depth, AtomicInteger queued) {
            this(Arena.ofAuto().allocate((long) bs * depth, 4096), bs, queued);
        }

        @Override
        public MemorySegment buffer(int tag) {
            return all.asSlice((long) tag * bs, bs);
        }

        @Override
        public void queue(int tag, int file, boolean read, long offset, int len) {
            queued.incrementAndGet();
        }

        @Override
        public int submit() {
            return 0;
        }

        @Override
        public int reap(int min, int max, Completion sink) {
            return 0;
        }

        @Override
        public void close() {
        }
    }
}
