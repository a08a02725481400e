package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lab amplify}: every FIX checked before anything runs; a refusal names the fix and why, exits 2, writes nothing. */
class AmplifyCommandTest extends CapturedStreams {
    @TempDir
    Path run;

    private void runFolder(String labAb) throws Exception {
        Files.createDirectories(run.resolve("raw"));
        Files.writeString(run.resolve("manifest.json"), "{\"run_id\": \"r\", \"quick\": true, \"threads\": [1, 2], \"rounds\": 1,"
                + " \"lab_ab\": \"" + labAb + "\"}");
    }

    /** A fix's lab-ab.tsv of one trial (the command reads only that it is there). */
    private void sweep(String fix) throws Exception {
        Path d = run.resolve("raw").resolve(fix).resolve("lab-kernel");
        Files.createDirectories(d);
        Files.writeString(d.resolve("lab-ab.tsv"), "count\tround\tslot\tvariant\tvalue\tjobs\tios\truntime_s\tmetric\ttask_clock_ns"
                + "\tns_per_io\tops_delta\textra\n1\t1\t1\tbefore\tatomic\t2\t100\t2.0\t50.0\t1000\t10.0\t400\t-\n");
    }

    /** Exits 2 with {@code why} on stderr, and the run folder gains no steps.tsv, notebook or model file. */
    private void refused(String why, String... fixes) throws Exception {
        String[] args = new String[fixes.length + 2];
        args[0] = "amplify";
        args[1] = run.toString();
        System.arraycopy(fixes, 0, args, 2, fixes.length);
        assertEquals(2, Lab.run(args), err.toString());
        assertTrue(err.toString().contains(why), err.toString());
        assertFalse(Files.exists(run.resolve("raw/steps.tsv")));
        assertFalse(Files.exists(run.resolve("NOTEBOOK.md")));
    }

    @Test
    void notARunFolder() throws Exception {
        refused("not a run folder", "part-acct");
    }

    @Test
    void aFixWithoutAnAmplifiedModelOrWithoutItsSweepIsRefusedBeforeAnyRuns() throws Exception {
        runFolder("full");
        sweep("part-acct");
        // part-acct is ready, but the refusal of the second fix comes first: nothing of part-acct runs
        refused("dm-blkcg-clone: its model has no amplified form", "part-acct", "dm-blkcg-clone");
        assertFalse(Files.exists(run.resolve("raw/part-acct/lab-kernel/model-amp.txt")));
        err.reset();
        refused("zram-init-lock: the run has no kernel sweep for it", "zram-init-lock");
        err.reset();
        refused("nonesuch: not a fix the lab pairs", "nonesuch");
    }

    @Test
    void aQuickSweepIsRefused() throws Exception {
        runFolder("quick");
        sweep("part-acct");
        refused("part-acct: the run's lab kernel A/B was 'quick', not full", "part-acct");
    }

    @Test
    void whereAndTheGuestsKernelAreCheckedFirst() throws Exception {
        runFolder("full");
        sweep("part-acct");
        refused("--where 'vm' is not host, guest or both", "part-acct", "--where", "vm");
        err.reset();
        refused("--guest-kernel 'ubuntu' is not lab or debian", "part-acct", "--guest-kernel", "ubuntu");
        assertFalse(Files.exists(run.resolve("raw/part-acct/lab-kernel/amp-guest")));
    }
}
