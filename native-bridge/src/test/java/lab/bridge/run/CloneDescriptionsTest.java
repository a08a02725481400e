package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.jobs;
import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import lab.bridge.ffi.Errno;
import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each clone of a job runs over descriptions of its own, as fio's clones open their files each,
 * even when the job's one target is opened once by the run: no {@code struct file} (its position,
 * its reference count) is shared between clones.
 */
class CloneDescriptionsTest {
    @TempDir
    Path dir;

    @Test
    void eachCloneGetsItsOwnDescriptorAndReleasesIt() throws Exception {
        Path f = Files.write(dir.resolve("t.img"), new byte[1 << 20]);
        Set<Integer> given = ConcurrentHashMap.newKeySet();
        EngineFactory recording = (job, fd) -> {
            given.add(fd);
            return EngineFactory.REAL.open(job, fd);
        };
        for (String thread : List.of("0", "1")) {
            given.clear();
            var out = run(jobs(dir, "c.fio", "[c]\nrw=randread\nbs=4k\nsize=256k\nnumjobs=3\nioengine=psync\nthread=" + thread
                    + "\nfilename=" + f + "\n"), new BridgeRun.Options(null, false, DeviceOwnership.registry(), recording));
            assertEquals(3, out.report().jobs().size());
            assertEquals(3, given.size(), "thread=" + thread + ": three clones, three descriptors " + given);
            for (int fd : given) {
                ErrnoException closed = assertThrows(ErrnoException.class, () -> Libc.statusFlags(fd),
                        "descriptor " + fd + " still open after the run");
                assertEquals(Errno.EBADF, closed.errno());
            }
        }
    }
}
