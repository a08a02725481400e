package lab.fix;

import static lab.fix.HandWorked.near;
import static lab.fix.HandWorked.pin;
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
import lab.fix.HandWorked.Interval;
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
    /*
     * The throughput fixes' kernel figure, N = 1: the after over the before of the same round, 1.014 × 1.001 and
     * 1.014 × 0.999 (LabKernelFiles.ratio). Logs ln 1.014 + ln 1.001 and ln 1.014 + ln 0.999: mean ln 1.014 + ln(0.999999)/2,
     * so the estimate 1.014 × √0.999999 = 1.0139994930; sd (1 df) ln(1.001/0.999)/√2 = 0.0014142140, h = t(0.975, 1) ×
     * sd/√2 = 12.706 × ln(1.001/0.999)/2 = 12.706 × 0.0020000007/2 = 0.0127060042: [1.0011971169–1.0269655740].
     */
    static final Interval IOPS = new Interval(1.0139994929998732, 1.0011971169065046, 1.0269655739530226, 2);
    /*
     * Their A/A: the aa over the after of the same round, 1.004 and 0.998 (LabKernelFiles.aaFactor). Logs 0.0039920213 and
     * −0.0020020027: mean 0.0009950093 (the estimate √(1.004 × 0.998) = 1.0009955045), sd 0.0042384150, h = 12.706 ×
     * ln(1.004/0.998)/2 = 12.706 × 0.0059940240/2 = 0.0380800341: [0.9635942025–1.0398485145]. (The after over
     * itself would be 1 [1–1]; the aa over the before, about 1/1.014.)
     */
    static final Interval IOPS_AA = new Interval(1.0009955044854097, 0.9635942024686035, 1.0398485144815384, 2);
    /*
     * The share's kernel figure: the after's share itself, 1.98 and 2.02 (LabKernelFiles.afterShare): the estimate
     * √(1.98 × 2.02) = √3.9996 = 1.9998999975, h = 12.706 × ln(2.02/1.98)/2 = 12.706 × 0.0200006667/2 = 0.1270642356:
     * [1.7612661300–2.2708663568].
     */
    static final Interval SHARE = new Interval(1.9998999974998748, 1.7612661300267982, 2.2708663567720704, 2);
    /*
     * Its A/A: the aa's share over the after's, 2.00/1.98 = 1.0101010101 and 2.01/2.02 = 0.9950495050: logs 0.0100503359
     * and −0.0049627893, mean 0.0025437733 (the estimate 1.0025470114), h = 12.706 × 0.0150131252/2 = 0.0953783844:
     * [0.9113442140–1.1028769312].
     */
    static final Interval SHARE_AA = new Interval(1.002547011391987, 0.9113442140386115, 1.1028769312057336, 2);

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
        // the kernel figure and its A/A, worked by hand from LabKernelFiles (see the comments above the constants)
        Interval kernel = share ? SHARE : IOPS;
        near(kernel.value(), ((Number) h.get("kernel")).doubleValue(), 1e-9, fix + ": the kernel figure");
        pin(kernel, JSON.valueToTree(h.get("kernel_estimate")), fix + ": the kernel figure as summary.json writes it");
        JsonNode a = JSON.valueToTree(h.get("aa_kernel"));
        pin(share ? SHARE_AA : IOPS_AA, a, fix + ": the A/A, the aa over the after, not the after over itself");
        assertEquals("holds 1", a.path("self_test").asText());
        String note = (String) h.get("kernel_note");
        assertTrue(note.startsWith("lab kernel 6.1.0-lab+, " + fix + " switch " + (share ? "0 vs 1" : "1 vs 0") + ", tcg, N=1; A/A "
                + (share ? "1.003 [0.911–1.103]" : "1.001 [0.964–1.040]") + (share ? "; after a/b" : "; slope 2.00 ns/op")), note);
        assertTrue(with.summary().get("lab_kernel") instanceof Map, with.summary().toString());
        if (!share) {
            assertTrue(sub.contains("| 16 | "), sub);
            assertTrue(sub.contains("b = 2.00 ns per added shared-line operation per I/O, a = 10.0 ns"), sub);
        } else {
            assertTrue(((String) h.get("note")).contains("kernel: the lab kernel's switch at the after"), h.toString());
            // per round: the before's share, the after's, the A/A's (not the after's again), the root's share before and after
            assertTrue(sub.contains("| 1 | 1.00 | 1.98 | 2.00 | — | 0.0% |\n| 2 | 1.00 | 2.02 | 2.01 | 100.0% | 0.0% |"), sub);
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
        /*
         * lab over debian per round, each boot's two repetitions averaged (the 1% of the second cancels within a round):
         * 0.80 and 0.82. Logs −0.2231435513 and −0.1984509387: mean −0.2107972450 (the estimate √0.656 = 0.8099382693),
         * h = 12.706 × ln(0.82/0.80)/2 = 12.706 × 0.0246926125/2 = 0.1568721678: [0.6923460246–0.9475030934]. The A/A,
         * the second repetition over the first of each boot and kernel: 1.01, 1.01 (round 1), 0.99, 0.99 (round 2); logs
         * ±0.0100 about their mean ln(0.9999)/2 = −0.0000500025 (the estimate √0.9999 = 0.9999499987), sd (3 df)
         * ln(1.01/0.99)/√3 = 0.0115473903, h = t(0.975, 3) × sd/√4 = 3.182 × 0.0115473903/2 = 0.0183718980:
         * [0.9817467455–1.0184907712].
         */
        assertTrue(md.contains("lab / debian: 0.810 [0.692–0.948]x; the A/A (the second repetition over the first in one boot, both"
                + " kernels): 1.000 [0.982–1.018]x. CPU per I/O"), md);
        // an interval that leaves out 1, said with by how much: 1 − 0.8099 = 19.0% fewer
        assertTrue(md.contains(" Its interval leaves out 1: the lab kernel did 19.0% fewer IOPS than Debian's here "), md);
        assertTrue(md.indexOf("## The lab kernel's overhead") < md.indexOf("## Gaps"), md);
        // the table has the kernel's figure and its verdict in a word; the sentence above it, where it comes from (IOPS above):
        // 1.0140 [1.0012–1.0270], an effect of +1.4% (+0.1% to +2.7%)
        assertTrue(md.contains(" | 1.01 [1.00–1.03]x, effect | "), md);
        assertTrue(md.contains("the kernel gives **1.01 [1.00–1.03]x, an effect of +1.4% (+0.1% to +2.7%)**"), md);
        assertTrue(md.contains("(lab kernel 6.1.0-lab+, zram-init-lock switch 1 vs 0, tcg, N=1; A/A 1.001 [0.964–1.040]"), md);
        JsonNode s = JSON.readTree(run.resolve("summary.json").toFile());
        JsonNode o = s.path("lab_kernel_overhead");
        pin(new Interval(0.8099382692526634, 0.6923460245901661, 0.9475030933965698, 2), o.path("ratio"), "lab / debian");
        pin(new Interval(0.9999499987499375, 0.9817467455486241, 1.0184907712031492, 4), o.path("aa"), "the overhead's A/A");
        JsonNode h = s.path("fixes").path("zram-init-lock").path("headline");
        near(IOPS.value(), h.path("kernel").asDouble(), 1e-9, "the kernel figure");
        pin(IOPS, h.path("kernel_estimate"), "the kernel figure");
        pin(IOPS_AA, h.path("aa_kernel"), "the kernel's A/A");
        assertEquals(2, s.path("fixes").path("zram-init-lock").path("lab_kernel").path("counts").size());
    }
}
