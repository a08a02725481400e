package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import lab.notebook.LabKernelPart;
import lab.notebook.SectionOutput;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lab kernel in the five switched fixes' sections ({@link LabKernelFiles}): the subsection,
 * the headline's kernel figure and the summary's {@code lab_kernel} appear with
 * {@code raw/<fix>/lab-kernel/lab-ab.tsv}, and without it the section is what it was, to the byte;
 * the run's overhead part and {@code lab_kernel_overhead} likewise with {@code overhead.tsv}.
 */
class LabKernelSectionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static Stream<String> switched() {
        return Stream.of("zram-init-lock", "dm-css-ref", "part-acct", "dm-blkcg-clone", "thin-bufio-lock");
    }

    private Path run(String fix) throws Exception {
        Path run = tmp.resolve("run");
        Files.createDirectories(run.resolve("raw").resolve(fix));
        Files.writeString(run.resolve("manifest.json"), "{\"run_id\": \"run\", \"command\": \"./lab pair " + fix + "\", \"cores\": 2}");
        return run;
    }

    private static SectionOutput render(Path run, String fix) throws Exception {
        return Fixes.byId(fix).orElseThrow().section().render(RunDir.open(run)).orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> headline(SectionOutput o) {
        return (Map<String, Object>) o.summary().get("headline");
    }

    @ParameterizedTest
    @MethodSource("switched")
    void theSubsectionTheHeadlineAndTheSummaryComeWithTheFilesAndOnlyWithThem(String fix) throws Exception {
        Path run = run(fix);
        SectionOutput without = render(run, fix);
        assertFalse(without.markdown().contains("### The lab kernel"), without.markdown());
        assertFalse(without.summary().containsKey("lab_kernel"));
        assertNull(headline(without).get("kernel"));
        boolean share = fix.equals("dm-blkcg-clone");
        if (share) {
            LabKernelFiles.share(run.resolve("raw"), fix);
        } else {
            LabKernelFiles.iops(run.resolve("raw"), fix);
        }
        SectionOutput with = render(run, fix);
        String sub = LabKernelPart.read(RunDir.open(run), fix).orElseThrow()
                .text(headline(with).get("base_ns") instanceof Number n ? n.doubleValue() : null,
                        headline(with).get("predicted") instanceof Number q ? q.doubleValue() : null);
        assertTrue(sub.startsWith("### The lab kernel: " + fix + "'s before behind a switch\n\n"), sub);
        assertTrue(with.markdown().contains(sub), with.markdown());
        assertEquals(without.markdown(), with.markdown().replace(sub, ""), "the subsection is the only change to the markdown");
        Map<String, Object> h = headline(with);
        assertEquals(share ? 2.0 : 1014 / 1000.0, ((Number) h.get("kernel")).doubleValue(), 1e-3);
        String note = (String) h.get("kernel_note");
        // the A/A over rounds: exactly 1 in these files
        assertTrue(note.startsWith("lab kernel 6.1.0-lab+, " + fix + " switch " + (share ? "0 vs 1" : "1 vs 0") + ", tcg, N=1; A/A 1.000"
                + " [1.000–1.000]"), note);
        assertTrue(h.get("aa_kernel") instanceof Map<?, ?> aa && "holds 1".equals(aa.get("self_test")), h.toString());
        assertTrue(with.summary().get("lab_kernel") instanceof Map, with.summary().toString());
        if (!share) {
            assertTrue(sub.contains("| 16 | "), sub);
            assertTrue(sub.contains("b = 2.00 ns per added shared-line operation per I/O, a = 10.0 ns"), sub);
        } else {
            assertTrue(((String) h.get("note")).contains("kernel: the lab kernel's switch at the after"), h.toString());
            assertTrue(sub.contains("| 1 | 1.00 | 2.00 | 2.00 | — | 0.0% |\n| 2 | 1.00 | 2.00 | 2.00 | 100.0% | 0.0% |"), sub);
            assertTrue(sub.contains("this run has no CPU per I/O of the guest's to set beside the model's"), sub);
            assertEquals("lab kernel 6.1.0-lab+, tcg", h.get("kernel_environment"));
        }
    }

    @Test
    void theNotebookHasTheOverheadPartAndTheHeadlinesTheKernelFigureOnlyWithTheirFiles() throws Exception {
        Path run = run("zram-init-lock");
        Fixes.notebook(run);
        String before = Files.readString(run.resolve("NOTEBOOK.md"));
        assertFalse(before.contains("The lab kernel's overhead"), before);
        assertFalse(JSON.readTree(run.resolve("summary.json").toFile()).has("lab_kernel_overhead"));
        LabKernelFiles.iops(run.resolve("raw"), "zram-init-lock");
        LabKernelFiles.overhead(run.resolve("raw"));
        Fixes.notebook(run);
        String md = Files.readString(run.resolve("NOTEBOOK.md"));
        assertTrue(md.contains("\n## The lab kernel's overhead\n\n"), md);
        assertTrue(md.contains("lab / debian: 0.800 [0.800–0.800]x; the A/A"), md);
        // 20% fewer IOPS every round: an interval that leaves out 1, said with by how much
        assertTrue(md.contains(" Its interval leaves out 1: the lab kernel did 20.0% fewer IOPS than Debian's here "), md);
        assertTrue(md.indexOf("## The lab kernel's overhead") < md.indexOf("## Gaps"), md);
        // the table has the kernel's figure and its verdict in a word; the sentence above it, where it comes from
        assertTrue(md.contains(" | 1.01 [1.01–1.01]x, effect | "), md);
        assertTrue(md.contains("the kernel gives **1.01 [1.01–1.01]x, an effect of +1.4% (+1.4% to +1.4%)**"), md);
        assertTrue(md.contains("(lab kernel 6.1.0-lab+, zram-init-lock switch 1 vs 0, tcg, N=1; A/A 1.000"), md);
        JsonNode s = JSON.readTree(run.resolve("summary.json").toFile());
        assertEquals(0.8, s.path("lab_kernel_overhead").path("ratio").path("value").asDouble(), 1e-6);
        assertEquals(1.014, s.path("fixes").path("zram-init-lock").path("headline").path("kernel").asDouble(), 1e-3);
        assertEquals(2, s.path("fixes").path("zram-init-lock").path("lab_kernel").path("counts").size());
    }
}
