package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.assumeRoot;
import static lab.bridge.run.BridgeTesting.jobs;
import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import lab.bridge.engine.BridgeEngines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * As root, on a loop device the test makes over a file of its own (blk-mq: it offers
 * schedulers): ioscheduler is in force while the clones run and restored after; refusals.
 */
class IoSchedulerTest {

    private Path dir;
    private String dev;
    private Path sched;
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void loop() throws Exception {
        assumeRoot();
        dir = BridgeTesting.scratch("iosched");
        Path backing = dir.resolve("backing.img");
        Files.deleteIfExists(backing);
        try (var f = new java.io.RandomAccessFile(backing.toFile(), "rw")) {
            f.setLength(16 << 20);
        }
        Process p = new ProcessBuilder("losetup", "-f", "--show", backing.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assumeTrue(p.waitFor() == 0 && out.startsWith("/dev/loop"), "losetup: " + out);
        dev = out;
        sched = Path.of("/sys/block", Path.of(dev).getFileName().toString(), "queue/scheduler");
        assumeTrue(Files.readString(sched).contains("mq-deadline"), "no mq-deadline: " + Files.readString(sched));
        Files.writeString(sched, "none");
    }

    @AfterEach
    void detach() throws Exception {
        if (dev != null) {
            new ProcessBuilder("losetup", "-d", dev).inheritIO().start().waitFor();
        }
    }

    private BridgeTesting.Outcome runJob(String extra, DeviceOwnership ownership) throws Exception {
        return run(jobs(dir, "job.fio", "[r]\nioengine=psync\nrw=read\nbs=4k\nsize=1m\nfilename=" + dev + "\n"
                + extra + "\n"), new BridgeRun.Options(null, false, ownership, (job, fd) -> {
                    seen.add(Files.readString(sched).strip());
                    return BridgeEngines.open(job, fd);
                }));
    }

    private static final DeviceOwnership MINE = (p, maj, min) -> Optional.empty();

    @Test
    void theSchedulerIsSetForTheRunAndRestored() throws Exception {
        BridgeTesting.Outcome o = runJob("ioscheduler=mq-deadline", MINE);
        assertEquals(256, o.report().jobs().getFirst().read().totalIos());
        assertEquals(1, seen.size());
        assertTrue(seen.getFirst().contains("[mq-deadline]"), "while set up: " + seen);
        assertTrue(Files.readString(sched).startsWith("[none]"), "restored: " + Files.readString(sched));
        assertTrue(o.notes().contains("lab: ioscheduler none -> mq-deadline"), o.notes());
        assertEquals("mq-deadline", o.report().jobs().getFirst().jobOptions().get("ioscheduler"));
    }

    @Test
    void refusedUnlessTheLabMayAndTheKernelOffersIt() throws Exception {
        DeviceOwnership notMine = (p, maj, min) -> Optional.of("the registry does not list it (test)");
        String m = assertThrows(BridgeSetupException.class, () -> runJob("ioscheduler=mq-deadline", notMine))
                .getMessage();
        assertTrue(m.contains("refusing to change the scheduler") && m.contains("(test)"), m);
        m = assertThrows(BridgeSetupException.class, () -> runJob("ioscheduler=cfq", MINE)).getMessage();
        assertTrue(m.contains("offers none, mq-deadline"), m);
        assertTrue(seen.isEmpty(), "no clone set up");
        assertTrue(Files.readString(sched).startsWith("[none]"), "untouched");
        Path file = dir.resolve("plain.img");
        Files.write(file, new byte[1 << 20]);
        m = assertThrows(BridgeSetupException.class, () -> run(jobs(dir, "f.fio", "[r]\nrw=read\nsize=1m\n"
                + "ioscheduler=none\nfilename=" + file + "\n"), new BridgeRun.Options(null, false, MINE,
                BridgeEngines::open))).getMessage();
        assertTrue(m.contains("is a regular file"), m);
    }
}
