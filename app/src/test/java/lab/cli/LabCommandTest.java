package lab.cli;

import lab.fix.Fixes;
import lab.fix.Pairing;
import lab.fix.Rounds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's contract: exit codes, messages, and nothing written on bad input. */
class LabCommandTest extends CapturedStreams {
    @TempDir
    Path dir;

    private Path jobFile(String text) throws Exception {
        Path f = dir.resolve("job.fio");
        Files.writeString(f, text);
        return f;
    }

    private long filesIn(Path d) throws Exception {
        try (Stream<Path> s = Files.walk(d)) {
            return s.count();
        }
    }

    @Test
    void engineRunOfAMalformedJobExits2NamingFileLineKeyAndWritesNothing() throws Exception {
        Path f = jobFile("[global]\nrw=randread\n\n[a]\nsize=1m\nbs=0\n");
        Path output = dir.resolve("out/result.json");
        long before = filesIn(dir);
        int rc = Lab.run("engine", "run", f.toString(), "--output", output.toString());
        assertEquals(2, rc);
        assertTrue(err.toString().contains(f + ":6: key 'bs'"), err.toString());
        assertFalse(Files.exists(output.getParent()), "no output folder on bad input");
        assertEquals(before, filesIn(dir));
    }

    @Test
    void specCheckOfAnUnknownKeyExits2() throws Exception {
        Path f = jobFile("[a]\nsize=1m\nsideways=1\n");
        assertEquals(2, Lab.run("spec", "check", f.toString()));
        assertTrue(err.toString().contains(":3: key 'sideways'"), err.toString());
    }

    @Test
    void anUnknownDeviceExits2() throws Exception {
        Path f = jobFile("[a]\nsize=1m\n");
        assertEquals(2, Lab.run("engine", "run", f.toString(), "--device", "floppy"));
        assertTrue(err.toString().contains("floppy"), err.toString());
    }

    /** What the model cannot run, a job without size, exits 2, naming the file and line. */
    @Test
    void jobsTheModelCannotRunExit2AndWriteNothing() throws Exception {
        Path output = dir.resolve("out/r.json");
        Path sizeless = jobFile("[a]\nrw=read\n");
        assertEquals(2, Lab.run("engine", "run", sizeless.toString(), "--output", output.toString()));
        assertTrue(err.toString().contains(sizeless + ":1: job 'a' has no size="), err.toString());
        assertFalse(Files.exists(output.getParent()), "no output folder on bad input");
    }

    @Test
    void badBenchOptionsExit2AndWriteNoRun() throws Exception {
        assertEquals(2, Lab.run("bench", "primitives", "--threads", "2,4", "--results", dir.toString()));
        assertEquals(2, Lab.run("bench", "primitives", "--rounds", "0", "--results", dir.toString()));
        assertEquals(2, Lab.run("bench", "primitives", "--threads", "x", "--results", dir.toString()));
        assertEquals(1, filesIn(dir), "nothing but the temp dir itself");
    }

    @Test
    void pairOfAnUnknownFixOrABadSweepExits2AndWritesNoRun() throws Exception {
        assertEquals(2, Lab.run("pair", "no-such-fix", "--results", dir.toString()));
        assertTrue(err.toString().contains("unknown fix 'no-such-fix'"), err.toString());
        assertEquals(2, Lab.run("pair", "dm-blkcg-clone", "--rounds", "0", "--results", dir.toString()));
        assertFalse(err.toString().contains("not yet modelled"), "every fix of the seeds is modelled: " + err);
        assertEquals(2, Lab.run("pair", "primitives", "--threads", "2", "--results", dir.toString()));
        assertEquals(1, filesIn(dir), "nothing but the temp dir itself");
    }

    @Test
    void pairOfSeveralFixesRefusesAnUnknownOneATwiceNamedOneAndABadKernelWithExit2() throws Exception {
        assertEquals(2, Lab.run("pair", "zram-init-lock", "no-such-fix", "dm-css-ref", "--quick", "--results", dir.toString()));
        assertTrue(err.toString().contains("unknown fix 'no-such-fix'"), err.toString());
        assertEquals(2, Lab.run("pair", "zram-init-lock", "dm-css-ref", "zram-init-lock", "--results", dir.toString()));
        assertTrue(err.toString().contains("fix 'zram-init-lock' is named twice"), err.toString());
        assertEquals(2, Lab.run("pair", "zram-init-lock", "dm-css-ref", "--kernel", "vanilla", "--results", dir.toString()));
        assertTrue(err.toString().contains("--kernel must be one of [lab, debian], not 'vanilla'"), err.toString());
        assertEquals(2, Lab.run("pair", "--kernel", "lab", "--results", dir.toString()));
        assertEquals(2, Lab.run("pair", "zram-init-lock", "--lab-ab", "long", "--results", dir.toString()));
        assertTrue(err.toString().contains("--lab-ab must be quick or full, not 'long'"), err.toString());
        assertEquals(1, filesIn(dir), "nothing but the temp dir itself");
        assertEquals(0, Lab.run("pair", "--help"));
        assertTrue(out.toString().contains("--kernel=lab|debian") && out.toString().contains("pair-multi-<UTC time>"), out.toString());
    }

    @Test
    void partAcctIsPairableWithHelpAndTheUsualChecks() throws Exception {
        assertEquals(0, Lab.run("pair", "part-acct", "--help"));
        assertTrue(out.toString().startsWith("Usage: lab pair"), out.toString());
        assertEquals(2, Lab.run("pair", "part-acct", "--threads", "2", "--results", dir.toString()));
        assertTrue(err.toString().contains("--threads must include 1"), err.toString());
        assertEquals(2, Lab.run("pair", "part-acct", "--rounds", "0", "--results", dir.toString()));
        assertEquals(1, filesIn(dir), "nothing but the temp dir itself");
        assertFalse(err.toString().contains("not yet modelled"), err.toString());
        Pairing p = Fixes.byId("part-acct").orElseThrow().pairing();
        assertEquals("part-acct", p.fixId());
        assertEquals("part-acct", p.kernelScenario());
        assertTrue(Fixes.pairings().stream().anyMatch(x -> x.fixId().equals("part-acct")), "the demo runs it");
    }

    @Test
    void roundsAlternateTheThreadOrderAndSayWhatIsLeft() {
        java.util.List<String> seen = new java.util.ArrayList<>();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        Rounds.interleave(java.util.List.of(1, 2, 4), 3, new java.io.PrintStream(out, true), "sweep", (r, t) -> seen.add(r + ":" + t));
        assertEquals(java.util.List.of("1:1", "1:2", "1:4", "2:4", "2:2", "2:1", "3:1", "3:2", "3:4"), seen);
        String[] lines = out.toString().split("\n");
        assertEquals(8, lines.length, "a line after every call but the last: " + out);
        assertTrue(lines[0].startsWith("lab:   sweep: 1 of 9 done, about ") && lines[0].endsWith(" left"), lines[0]);
        assertTrue(lines[7].startsWith("lab:   sweep: 8 of 9 done, about "), lines[7]);
    }

    @Test
    void notebookOfAFolderWithoutRawExits2AndCompareNeedsSummaries() throws Exception {
        assertEquals(2, Lab.run("notebook", dir.toString()));
        assertTrue(err.toString().contains("not a run folder"), err.toString());
        Path run = Files.createDirectories(dir.resolve("r1"));
        assertEquals(2, Lab.run("compare", run.toString(), run.toString(), "--results", dir.toString()));
        assertTrue(err.toString().contains("no summary.json"), err.toString());
        assertEquals(2, filesIn(dir), "the temp dir and r1 only");
    }

    @Test
    void engineRunWritesFioStyleJsonWithIops() throws Exception {
        Path f = jobFile("[a]\nrw=randrw\nbs=4k\nsize=8m\nnumjobs=2\niodepth=2\nruntime=200ms\ntime_based\n");
        Path output = dir.resolve("r.json");
        assertEquals(0, Lab.run("engine", "run", f.toString(), "--device", "ram", "--output", output.toString()));
        JsonNode job = new ObjectMapper().readTree(output.toFile()).get("jobs").get(0);
        assertTrue(job.get("read").get("iops").asDouble() > 0, job.toString());
        assertTrue(job.get("write").get("iops").asDouble() > 0, job.toString());
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(0, s.filter(p -> p.getFileName().toString().endsWith(".partial")).count());
        }
    }

    /** The seed's experiment from the command line: 3 dm-linear layers, the atomic css, injected points. */
    @Test
    void engineRunThroughADmStackWithInjections() throws Exception {
        Path f = jobFile("[a]\nrw=randrw\nbs=512\nsize=4m\nnumjobs=2\nruntime=200ms\ntime_based\n");
        Path output = dir.resolve("r.json");
        assertEquals(0, Lab.run("engine", "run", f.toString(), "--device", "ram", "--dm-linear", "3", "--css", "atomic",
                "--inject", "clone:cmpxchg,end_io:atomic:2", "--output", output.toString()));
        JsonNode job = new ObjectMapper().readTree(output.toFile()).get("jobs").get(0);
        assertTrue(job.get("read").get("iops").asDouble() > 0, job.toString());
        assertEquals(0, job.get("error").asInt(), job.toString());
        String notes = job.get("lab").get("notes").toString();
        assertTrue(notes.contains("dm: 3 nested dm-linear") && notes.contains("css=atomic:")
                && notes.contains("inject=clone:cmpxchg,end_io:atomic:2"), notes);
    }

    /** A bad injection, on the command line or in the job file, exits 2 before anything is written. */
    @Test
    void badInjectionsExit2AndWriteNothing() throws Exception {
        Path output = dir.resolve("out/r.json");
        Path f = jobFile("[a]\nsize=1m\n");
        assertEquals(2, Lab.run("engine", "run", f.toString(), "--inject", "clone:cmpxchg", "--output", output.toString()));
        assertTrue(err.toString().contains("stage clone lies inside a dm layer"), err.toString());
        assertEquals(2, Lab.run("engine", "run", f.toString(), "--dm-linear", "2", "--inject", "clone:cas", "--output", output.toString()));
        assertTrue(err.toString().contains("--inject: 'cas' in 'clone:cas' is not a kind"), err.toString());
        assertEquals(2, Lab.run("engine", "run", f.toString(), "--css", "sometimes", "--output", output.toString()));
        assertTrue(err.toString().contains("unknown css forwarding 'sometimes'"), err.toString());
        Path bad = jobFile("[a]\nsize=1m\ninject=map:atomic:129\n");
        assertEquals(2, Lab.run("engine", "run", bad.toString(), "--dm-linear", "1", "--output", output.toString()));
        assertTrue(err.toString().contains(bad + ":3: key 'inject'"), err.toString());
        assertFalse(Files.exists(output.getParent()), "no output folder on bad input");
    }
}
