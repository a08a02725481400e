package lab.bridge.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.jobspec.JobFileParser;
import lab.jobspec.report.FioReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bridge.jar}'s command line: exit codes, one-line usage errors, and what is written. */
class BridgeMainTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return BridgeMain.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void usageErrorsExit2WithOneLine() {
        for (String[] args : List.of(new String[] {}, new String[] {"walk"}, new String[] {"run"},
                new String[] {"run", "a.fio", "b.fio"}, new String[] {"run", "a.fio", "--bogus"},
                new String[] {"run", "a.fio", "--output"}, new String[] {"spec", "check", "a.fio"},
                new String[] {"spec", "render"})) {
            err.reset();
            assertEquals(2, run(args), List.of(args).toString());
            assertEquals(1, err().lines().count(), err());
            assertTrue(err().startsWith("lab: "), err());
        }
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpExits0() {
        assertEquals(0, run("--help"));
        assertEquals(0, run("run", "--help"));
        assertEquals(0, run("spec", "render", "--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--i-own-this-device"));
    }

    @Test
    void runWritesTheReportToOutputAndExits0() throws Exception {
        Path job = dir.resolve("w.fio");
        Files.writeString(job, "[w]\nrw=randwrite\nbs=4k\nsize=64k\nioengine=psync\n");
        Path img = dir.resolve("t.img");
        Files.createFile(img);
        Path json = dir.resolve("w.json");
        assertEquals(0, run("run", job.toString(), "--filename=" + img, "--output", json.toString()), err());
        FioReport r;
        try (var in = Files.newInputStream(json)) {
            r = FioReport.readJson(in);
        }
        assertEquals("lab-bridge-0.1.0", r.fioVersion());
        assertTrue(err().contains("lab: wrote " + json), err());
    }

    @Test
    void aMalformedJobFileExits2AndWritesNothing() throws Exception {
        Path job = dir.resolve("bad.fio");
        Files.writeString(job, "[x]\nrw=sideways\nsize=1m\n");
        Path json = dir.resolve("out.json");
        assertEquals(2, run("run", job.toString(), "--filename", dir.resolve("t").toString(), "--output", json.toString()));
        assertFalse(Files.exists(json));
        assertTrue(err().contains("key 'rw'"), err());
    }

    @Test
    void specRenderPrintsAJobFileAndRefusesABadKey() throws Exception {
        Path example = Path.of("..", "examples", "part-acct.fio");
        assertEquals(0, run("spec", "render", example.toString(), "--set", "numjobs=2", "--set=ioengine=psync",
                "--unset", "group_reporting", "--name", "j2"), err());
        var jobs = JobFileParser.parse(Path.of("r.fio"), out.toString(StandardCharsets.UTF_8)).jobs();
        assertEquals(2, jobs.getFirst().numjobs());
        assertEquals("j2", jobs.getFirst().name());
        assertFalse(jobs.getFirst().groupReporting());
        out.reset();
        assertEquals(2, run("spec", "render", example.toString(), "--set", "nmjobs=2"));
        assertTrue(err().contains("'nmjobs'"), err());
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    /** --batch: each line's file as a render of its own would print it; a bad line writes no file and names its line. */
    @Test
    void specRenderBatchWritesEachFileOrNone() throws Exception {
        Path example = Path.of("..", "examples", "part-acct.fio");
        assertEquals(0, run("spec", "render", example.toString(), "--set", "numjobs=2", "--name", "j2"), err());
        String alone = out.toString(StandardCharsets.UTF_8);
        Path list = dir.resolve("list");
        Path a = dir.resolve("a.fio");
        Path b = dir.resolve("b.fio");
        Files.writeString(list, a + "\t" + example + "\t--set\tnumjobs=2\t--name\tj2\n\n" + b + "\t" + example
                + "\t--set\tnumjobs=1\t--unset\tgroup_reporting\n");
        out.reset();
        assertEquals(0, run("spec", "render", "--batch", list.toString()), err());
        assertEquals(alone, Files.readString(a));
        var jobs = JobFileParser.parse(b, Files.readString(b)).jobs();
        assertEquals(1, jobs.getFirst().numjobs());
        assertFalse(jobs.getFirst().groupReporting());
        assertEquals("", out.toString(StandardCharsets.UTF_8));

        Files.delete(a);
        Files.delete(b);
        Files.writeString(list, a + "\t" + example + "\t--set\tnumjobs=2\n" + b + "\t" + example + "\t--set\tnmjobs=1\n");
        assertEquals(2, run("spec", "render", "--batch", list.toString()));
        assertTrue(err().startsWith("lab: spec render: " + list + ":2: ") && err().contains("'nmjobs'"), err());
        assertFalse(Files.exists(a) || Files.exists(b));
        err.reset();
        assertEquals(2, run("spec", "render", "--batch", list.toString(), example.toString()));
        assertEquals(1, err().lines().count(), err());
    }
}
