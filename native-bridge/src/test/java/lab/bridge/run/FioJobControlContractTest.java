package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import lab.bridge.engine.BridgeEngines;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * fio 3.33's flow control ({@code flow}, {@code flow_id}, {@code flow_sleep}) and
 * {@code exitall}/{@code exit_what} against the bridge's ({@link lab.jobspec.stats.Flows},
 * {@link lab.jobspec.stats.Exits}): the same job file on a 64 MiB sparse file, run by fio (where
 * fio 3.33 is installed) and by the bridge; compared are the ratio of the jobs' I/O counts in a
 * flow, and which jobs a job's end stopped (how long each ran, and whether it ran at all).
 */
class FioJobControlContractTest {
    private Path dir;
    private Path file;

    @BeforeEach
    void file() throws Exception {
        file = BridgeTesting.sparseFile("jobcontrol", 64L << 20);
        dir = file.getParent();
    }

    /** One job's I/Os and runtime (ms). */
    private record Ran(long ios, long runtimeMs) {
    }

    /** Each job's {@link Ran} by fio and by the bridge, by job name. */
    private record Both(Map<String, Ran> fio, Map<String, Ran> lab) {
    }

    private Both run(String jobsText) throws Exception {
        String text = "[global]\nfilename=" + file + "\nbs=4k\n" + jobsText;
        Path jobFile = dir.resolve("job.fio");
        Files.writeString(jobFile, text);
        Map<String, Ran> fio = new LinkedHashMap<>();
        for (JsonNode j : BridgeTesting.fioJobs(jobFile)) {
            fio.put(j.get("jobname").asText(), new Ran(j.get("read").get("total_ios").asLong()
                    + j.get("write").get("total_ios").asLong(), j.get("job_runtime").asLong()));
        }
        Map<String, Ran> lab = new LinkedHashMap<>();
        for (FioJob j : BridgeTesting.run(jobs(dir, "lab.fio", text), new BridgeRun.Options(null, false,
                DeviceOwnership.registry(), BridgeEngines::open)).report().jobs()) {
            lab.put(j.jobname(), new Ran(j.read().totalIos() + j.write().totalIos(), j.jobRuntime()));
        }
        System.out.println(jobsText.replace('\n', ' ') + "\nfio: " + fio + "\nlab: " + lab);
        return new Both(fio, lab);
    }

    /** flow=1 and flow=3 in one flow_id: the second does three times the first's I/O, in both. */
    @Test
    void flowWeightsSetTheRatioOfTheJobsIos() throws Exception {
        Both b = run("[one]\nrw=read\ntime_based\nruntime=1\nflow=1\n[three]\nrw=randread\ntime_based\nruntime=1\n"
                + "flow=3\n");
        for (Map<String, Ran> side : java.util.List.of(b.fio, b.lab)) {
            double ratio = (double) side.get("three").ios / side.get("one").ios;
            assertEquals(3.0, ratio, 0.3, "three's I/Os over one's: " + b);
        }
    }

    /**
     * fio's examples/butterfly.fio in small: a forward and a backward read of one file in one flow
     * with equal weights: the same number of I/Os each, in both.
     */
    @Test
    void butterflyKeepsTheTwoReadsInStep() throws Exception {
        Both b = run("[forward]\nrw=read\nsize=4m\nflow=2\n[backward]\nrw=read:-8k\nsize=4m\nflow=2\n");
        for (Map<String, Ran> side : java.util.List.of(b.fio, b.lab)) {
            assertEquals(side.get("forward").ios, side.get("backward").ios, 2, "in step: " + b);
        }
    }

    /** exitall, exit_what=group (the default): the short job's end stops the long one of its group. */
    @Test
    void exitallStopsTheGroupWhenOneJobEnds() throws Exception {
        Both b = run("[short]\nrw=read\nsize=1m\nexitall\n[long]\nrw=randread\ntime_based\nruntime=20\n");
        for (Map<String, Ran> side : java.util.List.of(b.fio, b.lab)) {
            assertEquals(256, side.get("short").ios, b.toString());
            assertTrue(side.get("long").runtimeMs < 5000, "long stopped with short: " + b);
        }
    }

    /**
     * exit_what=stonewall stops the running jobs of other groups; exit_what=all also the jobs not
     * started yet (a later stonewall job then issues nothing), in both.
     */
    @Test
    void exitWhatChoosesWhichJobsStop() throws Exception {
        Both b = run("[slow]\nrw=read\nnumber_ios=100\nthinktime=2ms\nexitall\nexit_what=stonewall\n"
                + "[fast]\nnew_group\nrw=randread\ntime_based\nruntime=20\n"
                + "[after]\nstonewall\nrw=read\nsize=1m\n");
        for (Map<String, Ran> side : java.util.List.of(b.fio, b.lab)) {
            assertTrue(side.get("fast").runtimeMs < 5000, "fast stopped with slow: " + b);
            assertEquals(256, side.get("after").ios, "after, not running then, runs: " + b);
        }
        Both all = run("[slow]\nrw=read\nnumber_ios=100\nthinktime=2ms\nexitall\nexit_what=all\n"
                + "[fast]\nnew_group\nrw=randread\ntime_based\nruntime=20\n"
                + "[after]\nstonewall\nrw=read\nsize=1m\n");
        for (Map<String, Ran> side : java.util.List.of(all.fio, all.lab)) {
            assertTrue(side.get("fast").runtimeMs < 5000, "fast stopped with slow: " + all);
            assertEquals(0, side.getOrDefault("after", new Ran(0, 0)).ios, "after never runs: " + all);
        }
    }
}
