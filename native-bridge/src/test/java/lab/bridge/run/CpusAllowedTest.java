package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.jobs;
import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import lab.bridge.engine.BridgeEngines;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * cpus_allowed on the bridge: each clone's thread is pinned before its engine is made; the
 * engine factory reads the thread's own Cpus_allowed_list from /proc, as the kernel sees it.
 */
class CpusAllowedTest {

    private Path dir;
    private Path file;
    /** Job name and clone thread to the thread's Cpus_allowed_list when its engine was made. */
    private final Map<String, String> allowed = new ConcurrentHashMap<>();

    @BeforeEach
    void file() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs 2 CPUs");
        dir = BridgeTesting.scratch("cpus");
        file = dir.resolve("target.img");
        Files.deleteIfExists(file);
        Files.createFile(file);
    }

    private BridgeTesting.Outcome runJob(String text) throws Exception {
        return run(jobs(dir, "job.fio", text), new BridgeRun.Options(null, false, DeviceOwnership.registry(),
                (job, fd) -> {
                    String status = Files.readString(Path.of("/proc/thread-self/status"));
                    String list = status.lines().filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst()
                            .orElseThrow().substring("Cpus_allowed_list:".length()).strip();
                    allowed.put(Thread.currentThread().getName(), list);
                    return BridgeEngines.open(job, fd);
                }));
    }

    @Test
    void splitPinsEachCloneToItsOwnCpuAndSharedToTheSet() throws Exception {
        BridgeTesting.Outcome o = runJob("[global]\nioengine=psync\nbs=4k\nsize=256k\nrw=write\nfilename=" + file
                + "\n[s]\nnumjobs=2\ncpus_allowed=0-1\ncpus_allowed_policy=split\n[one]\ncpumask=0x2\n"
                + "[any]\n");
        assertEquals(Map.of("lab-bridge-s.0", "0", "lab-bridge-s.1", "1", "lab-bridge-one.0", "1",
                "lab-bridge-any.0", Files.readString(Path.of("/proc/self/status")).lines()
                        .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
                        .substring("Cpus_allowed_list:".length()).strip()), allowed);
        List<FioJob> js = o.report().jobs();
        assertEquals(List.of(List.of(0), List.of(1), List.of(1)), js.subList(0, 3).stream()
                .map(j -> j.lab().cpus()).toList(), "sched_getcpu after pinning");
        assertTrue(js.get(0).lab().notes().stream().anyMatch(n -> n.contains("pinned with sched_setaffinity to CPUs"
                + " 0-1 split")), js.get(0).lab().notes().toString());
        assertEquals(64, js.get(0).write().totalIos());
    }
}
