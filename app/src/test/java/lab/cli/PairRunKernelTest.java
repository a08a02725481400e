package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.fix.Fixes;
import lab.fix.Steps;
import lab.notebook.Notebook;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pair run's kernel step against a stand-in {@code lab-kernel.sh}: a scenario whose guest part
 * failed (it exits 1, keeps its native results and names the part in {@code FAILED}, as
 * kernel-scripts' {@code _part_failed} writes it) is a failed step, which fails the run (exit 1),
 * whose line names the part and why, and which the notebook lists as a gap; a scenario that
 * fails without saying which part still names its log; one that ran is a step that ran.
 */
class PairRunKernelTest {
    private static final String WHY = "guest.sh run exited 1: guest wrote no exit-status (see guest/console.log)";

    @TempDir
    Path tmp;
    Path lab;
    Path run;
    Path out;
    Steps steps;
    final Map<String, Object> env = new LinkedHashMap<>();

    @BeforeEach
    void lab() throws Exception {
        lab = Files.createDirectories(tmp.resolve("lab/kernel-scripts")).getParent();
        run = tmp.resolve("run");
        out = run.resolve("raw/part-acct/kernel");
        Files.createDirectories(run.resolve("raw"));
        Files.writeString(run.resolve("manifest.json"), "{\"run_id\": \"run\", \"command\": \"./lab pair part-acct --quick\", \"cores\": 2}");
        steps = new Steps(run.resolve("raw"), new PrintStream(new ByteArrayOutputStream()));
    }

    /** The stand-in: the native part's env.txt and one result, then {@code body}. */
    private void script(String body) throws Exception {
        Files.writeString(lab.resolve("kernel-scripts/lab-kernel.sh"), """
                [ "$1 $2" = "run part-acct" ] || exit 9
                printf 'environment: native (zram, loop)\\nguest: failed: WHY\\n' > "$LAB_OUT/env.txt"
                : > "$LAB_OUT/native-part.result"
                """.replace("WHY", WHY) + body);
    }

    private boolean scenario() throws Exception {
        return PairRun.scenario(lab, "part-acct", "part-acct", out, true, steps, env);
    }

    private List<String> recorded() throws Exception {
        return Files.readAllLines(run.resolve("raw/steps.tsv"));
    }

    @Test
    void aFailedPartFailsTheStepNamesThePartAndWhyKeepsTheResultsAndIsAGapInTheNotebook() throws Exception {
        script("""
                echo "guest (nullb): %s" > "$LAB_OUT/FAILED"
                exit 1
                """.formatted(WHY));
        assertFalse(scenario(), "a failed step fails the run: PairRun returns Lab.EXIT_FAILED, 1");
        String line = "part-acct\tkernel\tfailed\tkernel-scripts/lab-kernel.sh run part-acct exited 1; failed part(s),"
                + " raw/part-acct/kernel/FAILED: guest (nullb): " + WHY + "; the other parts' results are kept;"
                + " see raw/part-acct/kernel/scenario.log";
        assertEquals(List.of(line), recorded());
        assertTrue(Files.exists(out.resolve("native-part.result")), "the native part's results are kept");
        assertEquals("native (zram, loop)", env.get("part-acct/kernel"));
        assertEquals(1, Lab.EXIT_FAILED);
        Notebook.Written w = Fixes.notebook(run);
        assertTrue(w.gaps().contains("`raw/steps.tsv`: `part-acct` kernel failed: " + line.split("\t")[3]), w.gaps().toString());
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        assertTrue(md.contains("- `raw/steps.tsv`: `part-acct` kernel failed: kernel-scripts/lab-kernel.sh run part-acct exited 1;"
                + " failed part(s), raw/part-acct/kernel/FAILED: guest (nullb): " + WHY), md);
    }

    @Test
    void aScenarioThatFailsWithoutNamingAPartStillNamesItsLog() throws Exception {
        script("exit 3\n");
        assertFalse(scenario());
        assertEquals(List.of("part-acct\tkernel\tfailed\tkernel-scripts/lab-kernel.sh run part-acct exited 3;"
                + " see raw/part-acct/kernel/scenario.log"), recorded());
    }

    @Test
    void aScenarioWhosePartsAllRanIsAStepThatRanAndNoGap() throws Exception {
        script("exit 0\n");
        assertTrue(scenario());
        assertEquals(List.of("part-acct\tkernel\tran\t./lab kernel run part-acct --quick (with LAB_OUT)"), recorded());
        assertTrue(Fixes.notebook(run).gaps().stream().noneMatch(g -> g.contains("steps.tsv")));
    }
}
