package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.assumeUring;
import static lab.bridge.run.BridgeTesting.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.bridge.engine.BridgeEngines;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * fio 3.33's priority and NUMA options against the bridge's, on a 64 MiB sparse file: the share
 * of requests sent with {@code cmdprio_class} (fio's JSON {@code prios}, the bridge's note),
 * and what the kernel says of the clone's thread after {@code prioclass}/{@code prio}
 * ({@code ioprio_get}) and {@code numa_mem_policy} ({@code get_mempolicy}); fio runs each file
 * too (it must accept it). That the request's own priority reaches the kernel is
 * {@code EngineRoundTripTest.aRequestsOwnPriorityReachesTheKernel}.
 */
class FioPlacementContractTest {
    private Path dir;
    private Path file;

    @BeforeEach
    void file() throws Exception {
        file = BridgeTesting.sparseFile("placement", 64L << 20);
        dir = file.getParent();
    }

    private record Both(JsonNode fio, BridgeTesting.Outcome lab) {
    }

    /**
     * The share of reads sent with priority class 1 is {@code share} within {@code tolerance} in
     * both: fio's from its JSON {@code prios}, the bridge's from its note ({@code note}'s group 1).
     */
    private static void assertShareAtClass1(Both b, String note, double share, double tolerance) {
        long fioAt1 = readsAtClass1(b.fio);
        long fioAll = b.fio.get("read").get("total_ios").asLong();
        Matcher m = Pattern.compile(note).matcher(b.lab.notes());
        assertTrue(m.find(), b.lab.notes());
        long labAt1 = Long.parseLong(m.group(1));
        long labAll = b.lab.report().jobs().getFirst().read().totalIos();
        String both = "fio " + fioAt1 + " of " + fioAll + ", bridge " + labAt1 + " of " + labAll;
        System.out.println(both);
        assertEquals(share, (double) fioAt1 / fioAll, tolerance, both);
        assertEquals(share, (double) labAt1 / labAll, tolerance, both);
    }

    /** fio's reads sent at priority class 1 (its JSON {@code prios}, one entry per priority used). */
    private static long readsAtClass1(JsonNode fio) {
        long n = 0;
        for (JsonNode p : fio.get("read").get("prios")) {
            if (p.get("prioclass").asInt() == 1) {
                n += p.get("clat_ns").get("N").asLong();
            }
        }
        return n;
    }

    private Both run(String job) throws Exception {
        String text = "[global]\nfilename=" + file + "\n" + job;
        Path jobFile = dir.resolve("job.fio");
        Files.writeString(jobFile, text);
        JsonNode fio = BridgeTesting.fioJobs(jobFile).get(0);
        BridgeTesting.Outcome lab = BridgeTesting.run(jobs(dir, "lab.fio", text), new BridgeRun.Options(null, false,
                DeviceOwnership.registry(), BridgeEngines::open));
        assertEquals(0, lab.report().jobs().getFirst().error(), lab.notes());
        return new Both(fio, lab);
    }

    /** fio's examples/cmdprio-percentage.fio in small: 20% of the reads at class 1, the rest at the job's class 3. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"io_uring", "libaio"})
    void cmdprioPercentageSendsThatShareWithItsClass(String engine) throws Exception {
        if (engine.equals("io_uring")) {
            assumeUring();
        }
        Both b = run("[c]\nrw=randread\nbs=4k\nsize=16m\nioengine=" + engine + "\niodepth=8\nprioclass=3\n"
                + "cmdprio_percentage=20\ncmdprio_class=1\n");
        assertShareAtClass1(b, "cmdprio: (\\d+) read\\(s\\) at class 1 level 0", 0.20, 0.03);
        assertTrue(b.lab.notes().contains("prioclass=3 prio=0: ioprio_get says class 3 level 0"), b.lab.notes());
    }

    /**
     * fio's examples/cmdprio-bssplit.fio in small: every 4k read at cmdprio_class (1, level 0),
     * a quarter of the 16k ones at class 1 level 1: 62.5% of the reads with a priority of their
     * own, in both (fio's JSON prios at class 1, the bridge's note).
     */
    @Test
    void cmdprioBssplitSetsThePriorityBySize() throws Exception {
        assumeUring();
        Both b = run("[c]\nrw=randread\nsize=16m\nioengine=io_uring\niodepth=8\nnorandommap\n"
                + "bssplit=4k/50:16k/50\ncmdprio_bssplit=4k/100:16k/25/1/1\n");
        assertShareAtClass1(b, "cmdprio_bssplit: (\\d+) read\\(s\\)", 0.625, 0.05);
    }

    /** fio's examples/numa.fio's first job on this machine's node 0: bound to its CPUs and memory. */
    @Test
    void numaNodesPinTheCloneAndBindItsMemory() throws Exception {
        Both b = run("[n]\nrw=randread\nbs=4k\nsize=4m\nnuma_cpu_nodes=0\nnuma_mem_policy=bind:0\n");
        assertEquals(1024, b.fio.get("read").get("total_ios").asLong());
        assertTrue(b.lab.notes().contains("numa_mem_policy=bind:{0}: get_mempolicy says mode 2 nodes [0]"),
                b.lab.notes());
        String cpus = Files.readString(Path.of("/sys/devices/system/node/node0/cpulist")).strip();
        assertEquals(1024, b.lab.report().jobs().getFirst().read().totalIos());
        int cpu = b.lab.report().jobs().getFirst().lab().cpus().getFirst();
        assertTrue(BridgeRun.nodeCpus(jobs(dir, "n.fio", "[n]\nsize=1m\nnuma_cpu_nodes=0\n").getFirst()).get(cpu),
                "clone on CPU " + cpu + ", node 0 has " + cpus);
    }
}
