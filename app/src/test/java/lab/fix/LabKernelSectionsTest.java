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
     * The throughput fixes' kernel figure, N = 1: the after over the before of the same round, 1.014 × 1.001, 1.014 × 0.999
     * and 1.014 × 1.0 (LabKernelFiles.ratio). Logs 0.0149024055, 0.0129024048, 0.0139029052: mean 0.0139025718 (the
     * estimate 1.0139996620), sd (2 df) 0.0010000004, h = t(0.975, 2) × sd/√3 = 4.303 × 0.0010000004/1.7320508076 =
     * 0.0024843391: [1.0114836695–1.0165219128].
     */
    static final Interval IOPS = new Interval(1.0139996619998872, 1.0114836695350091, 1.016521912814034, 3);
    /*
     * Their A/A: the aa over the after of the same round, 1.004, 0.998 and 1.001 (LabKernelFiles.aaFactor). Logs
     * 0.0039920213, −0.0020020027, 0.0009995003: mean 0.0009965063 (the estimate 1.0009970030), sd 0.0029970131, h = 4.303
     * × 0.0029970131/√3 = 0.0074455941: [0.9935716629–1.0084778355]. (The after over itself would be 1 [1–1]; the aa over
     * the before, about 1/1.014.)
     */
    static final Interval IOPS_AA = new Interval(1.00099700298803, 0.9935716629111335, 1.0084778354640311, 3);
    /*
     * The share's kernel figure: the after's share itself, 1.98, 2.02 and 2.00 (LabKernelFiles.afterShare): logs
     * 0.6830968447, 0.7030975114, 0.6931471806, mean 0.6931138456 (the estimate 1.9999333311), sd 0.0100003750, h = 4.303 ×
     * 0.0100003750/√3 = 0.0248443138: [1.9508584994–2.0502426650].
     */
    static final Interval SHARE = new Interval(1.9999333311109875, 1.950858499398954, 2.0502426650220817, 3);
    /*
     * Its A/A: the aa's share over the after's, 2.00/1.98 = 1.0101010101, 2.01/2.02 = 0.9950495050 and 1.99/2.00 = 0.995:
     * logs 0.0100503359, −0.0049627893, −0.0050125418, mean 0.0000250016 (the estimate 1.0000250019), sd 0.0086822298, h =
     * 4.303 × 0.0086822298/√3 = 0.0215695953: [0.9786858333–1.0218294476].
     */
    static final Interval SHARE_AA = new Interval(1.000025001875151, 0.9786858332733553, 1.0218294475874703, 3);

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
                + (share ? "1.000 [0.979–1.022]" : "1.001 [0.994–1.008]") + (share ? "; after a/b" : "; slope 2.00 ns/op")), note);
        // the kernel figure's verdict at ±2%, gated by its own A/A (which holds 1): the share 2.000 [1.951–2.050] an effect,
        // the throughput 1.0140 [1.0115–1.0165] a change smaller than ±2%
        assertEquals(share ? "effect" : "small-change", h.get("kernel_verdict"), h.toString());
        assertEquals(share ? "an effect of at least +2% (+100.0%, +95.1% to +105.0%)" : "a change smaller than ±2% (+1.4%, +1.1% to +1.7%)",
                h.get("kernel_verdict_text"));
        assertTrue(with.summary().get("lab_kernel") instanceof Map, with.summary().toString());
        if (!share) {
            assertTrue(sub.contains("| 16 | "), sub);
            assertTrue(sub.contains("b = 2.00 ns per added shared-line operation per I/O, a = 10.0 ns"), sub);
        } else {
            assertTrue(((String) h.get("note")).contains("kernel: the lab kernel's switch at the after"), h.toString());
            // per round: the before's share, the after's, the A/A's (not the after's again), the root's share before and after
            assertTrue(sub.contains("| 1 | 1.00 | 1.98 | 2.00 | — | 0.0% |\n| 2 | 1.00 | 2.02 | 2.01 | 100.0% | 0.0% |\n"
                    + "| 3 | 1.00 | 2.00 | 1.99 | 100.0% | 0.0% |"), sub);
            assertTrue(sub.contains("this run has no CPU per I/O of the guest's to set beside the model's"), sub);
            assertEquals("lab kernel 6.1.0-lab+, tcg", h.get("kernel_environment"));
        }
    }

    /*
     * Rounds nested in boots (LabKernelFiles.iops with a boot column, 2 rounds a boot), the boot the unit: each boot's mean
     * log, then their mean and t on boots − 1. The kernel figure at N = 1: boot 1 1.014 × 1.001 and 1.014 × 0.999, mean log
     * 0.0139024052; boot 2 1.014 × 1.0 and 1.014 × 1.003, 0.0154006597; boot 3 1.014 × 0.997 and 1.014 × 1.002,
     * 0.0133996520. Two boots: mean 0.0146515324 (1.0147593922), no interval. Three: mean 0.0142342389 (1.0143360281), sd
     * 0.0010409578, h = t(0.975, 2) × sd/√3 = 4.303 × 0.0010409578/1.7320508076 = 0.0025860913: [1.0117162515–1.0169625884]
     * on 2 df, not the 5 of six rounds pooled. The A/A: boots [1.004, 0.998], [1.001, 1.002], [0.997, 1.0], mean logs
     * 0.0009950093, 0.0014987515, −0.0015022545; two boots 1.0012476581, no interval; three 1.0003305567, sd 0.0016070739,
     * h = 0.0039925152: [0.9963446839–1.0043323750].
     */
    @Test
    void roundsNestedInBootsTakeTheBootAsTheUnit() throws Exception {
        Path run = run("zram-init-lock");
        LabKernelFiles.iops(run.resolve("raw"), "zram-init-lock", 4, 2);
        Map<String, Object> h = headline(render(run, "zram-init-lock"));
        Interval two = HandWorked.nestedGeo(new double[] {1.014 * 1.001, 1.014 * 0.999}, new double[] {1.014 * 1.0, 1.014 * 1.003});
        near(1.0147593922416467, two.value(), 1e-12, "the mean of 2 boots' mean logs, by hand");
        pin(two, JSON.valueToTree(h.get("kernel_estimate")), "2 boots");
        pin(HandWorked.nestedGeo(new double[] {1.004, 0.998}, new double[] {1.001, 1.002}), JSON.valueToTree(h.get("aa_kernel")), "2 boots' A/A");
        assertEquals("no-interval", h.get("kernel_verdict"), h.toString());
        assertEquals("2 boots: no interval", h.get("kernel_verdict_text"));

        LabKernelFiles.iops(run.resolve("raw"), "zram-init-lock", 6, 2);
        SectionOutput o = render(run, "zram-init-lock");
        h = headline(o);
        Interval three = HandWorked.nestedGeo(new double[] {1.014 * 1.001, 1.014 * 0.999}, new double[] {1.014 * 1.0, 1.014 * 1.003},
                new double[] {1.014 * 0.997, 1.014 * 1.002});
        near(1.0143360281087186, three.value(), 1e-12, "the mean of 3 boots' mean logs, by hand");
        near(1.0117162515232454, three.lo(), 1e-12, "t(0.975, 2) on the boots' spread, by hand");
        near(1.0169625884434372, three.hi(), 1e-12, "t(0.975, 2) on the boots' spread, by hand");
        JsonNode k = JSON.valueToTree(h.get("kernel_estimate"));
        pin(three, k, "3 boots");
        assertEquals(2, k.path("df").asInt(), "the boots' 2 degrees of freedom, not six rounds' 5: " + k);
        Interval aa = HandWorked.nestedGeo(new double[] {1.004, 0.998}, new double[] {1.001, 1.002}, new double[] {0.997, 1.0});
        near(1.0003305567175553, aa.value(), 1e-12, "the A/A's 3 boots, by hand");
        near(0.9963446839077376, aa.lo(), 1e-12, "the A/A's 3 boots, by hand");
        near(1.0043323749951543, aa.hi(), 1e-12, "the A/A's 3 boots, by hand");
        pin(aa, JSON.valueToTree(h.get("aa_kernel")), "3 boots' A/A");
        assertEquals("small-change", h.get("kernel_verdict"), h.toString());
        assertEquals("a change smaller than ±2% (+1.4%, +1.2% to +1.7%)", h.get("kernel_verdict_text"));
        assertTrue(o.markdown().contains(", 3 boots (rounds numbered across them; the boot is the unit of every interval: the mean of the"
                + " boots' means, t on boots − 1, none under three boots);"), o.markdown());
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
         * lab over debian per round, each boot's two repetitions averaged (the second's ±1% cancels within a round):
         * 0.80, 0.82 and 0.81. Logs −0.2231435513, −0.1984509387, −0.2107210313: mean −0.2107718405 (the estimate
         * 0.8099588456), sd (2 df) 0.0123463847, h = 4.303 × 0.0123463847/√3 = 0.0306725953: [0.7854924479–0.8351873190].
         * The A/A, the round its unit: the second repetition over the first of each kernel's boot, 1.01 and 1.01 (round 1),
         * 0.99 and 0.99 (round 2), 1.005 and 1.005 (round 3), the geometric mean of the two per round (the mean of their
         * logs): 0.0099503309, −0.0100503359, 0.0049875415; mean 0.0016291788 (the estimate 1.0016305067), sd (2 df)
         * 0.0104146828, h = t(0.975, 2) × sd/√3 = 4.303 × 0.0104146828/1.7320508076 = 0.0258735943:
         * [0.9760471196–1.0278844656], which holds 1. (Each kernel's pair a unit, six logs on 5 df, gave the narrower
         * [0.9918850172–1.0114717477]: pseudo-replication, the two kernels of a round sharing its drift.)
         */
        assertTrue(md.contains("lab / debian: 0.810 [0.785–0.835]x; the A/A (the second repetition over the first in one boot, both"
                + " kernels' in a round together): 1.002 [0.976–1.028]x. CPU per I/O"), md);
        // an interval beyond −5%, said with by how much: 1 − 0.8100 = 19.0% fewer
        assertTrue(md.contains(" the lab kernel did 19.0% fewer IOPS than Debian's here "), md);
        assertTrue(md.indexOf("## The lab kernel's overhead") < md.indexOf("## Gaps"), md);
        // the table has the kernel's figure and its verdict in a word (IOPS above: 1.0140 [1.0115–1.0165], inside ±2% and
        // leaving out 1), then the kernel's whole note and its own A/A (IOPS_AA above: 1.0010 [0.9936–1.0085]); the
        // first-screen sentence the figure and the note's first clause only
        assertTrue(md.contains(" | 1.01 [1.01–1.02]x, change < ±2% (lab kernel 6.1.0-lab+, zram-init-lock switch 1 vs 0, tcg, N=1;"
                + " A/A 1.001 [0.994–1.008]; slope 2.00 ns/op) | "), md);
        assertTrue(md.contains("; kernel **1.01 [1.01–1.02]x, change < ±2%** (lab kernel 6.1.0-lab+, zram-init-lock switch 1 vs 0, tcg, N=1)."),
                md);
        JsonNode s = JSON.readTree(run.resolve("summary.json").toFile());
        JsonNode o = s.path("lab_kernel_overhead");
        pin(new Interval(0.8099588456456969, 0.7854924479056539, 0.8351873189728064, 3), o.path("ratio"), "lab / debian");
        Interval overheadAa = new Interval(1.0016305066697377, 0.976047119576069, 1.0278844655852553, 3);
        near(overheadAa.hi(), HandWorked.geo(1.01, 0.99, 1.005).hi(), 1e-12, "the overhead's A/A over 3 rounds, by hand");
        pin(overheadAa, o.path("aa"), "the overhead's A/A, the round its unit");
        assertEquals("effect", o.path("verdict").asText(), "0.810 [0.785–0.835] beyond −5%, its A/A holding 1");
        JsonNode h = s.path("fixes").path("zram-init-lock").path("headline");
        near(IOPS.value(), h.path("kernel").asDouble(), 1e-9, "the kernel figure");
        pin(IOPS, h.path("kernel_estimate"), "the kernel figure");
        pin(IOPS_AA, h.path("aa_kernel"), "the kernel's A/A");
        assertEquals(2, s.path("fixes").path("zram-init-lock").path("lab_kernel").path("counts").size());
        JsonNode h2 = s.path("fixes").path("zram-init-lock").path("headline");
        assertEquals("small-change", h2.path("kernel_verdict").asText());
        assertEquals("a change smaller than ±2% (+1.4%, +1.1% to +1.7%)", h2.path("kernel_verdict_text").asText());
    }
}
