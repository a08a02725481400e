package lab.fix;

import static lab.fix.HandWorked.near;
import static lab.fix.HandWorked.pin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import lab.fix.HandWorked.Interval;
import lab.fix.HandWorked.Jvm;
import lab.fix.HandWorked.Predicted;
import lab.fix.dmblkcgclone.DmBlkcgCloneSectionTest;
import lab.fix.dmcssref.DmCssRefSectionTest;
import lab.fix.partacct.PartAcctSectionTest;
import lab.fix.thinbufiolock.ThinBufioLockSectionTest;
import lab.fix.zraminitlock.ZramInitLockSectionTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every headline figure of every fix, by value: each section's test fixture (the committed primitives run
 * for primitives) rendered as a notebook, and every number and estimate of its summary.json headline
 * set against the value worked by hand in that section's test (the comments there write out each
 * one), the A/A's included; where the fix's kernel cannot switch its before, the lab kernel's switch
 * A/B of {@link LabKernelFiles} gives the kernel figure and its A/A ({@link LabKernelSectionsTest}).
 * A headline figure no one worked out by hand, or one worked out that the headline lacks, fails.
 */
class HeadlinesByValueTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The primitives run of {@code lab.notebook.NotebookTest}: a quick `./lab pair primitives` captured on a 2-core VM. */
    private static final Path PRIMITIVES = Path.of("src/test/resources/runs/pair-primitives");

    @TempDir
    Path tmp;

    /** A fix's headline worked by hand: each figure's number, or its estimate as summary.json writes one. */
    private static final class Want {
        final Map<String, Object> figures = new LinkedHashMap<>();

        Want n(String key, double v) {
            figures.put(key, v);
            return this;
        }

        Want e(String key, Interval v) {
            figures.put(key, v);
            return this;
        }

        /**
         * The calibrated figure as the headline's {@code jvm}, the raw one beside it; the headline's A/A (the calibrated
         * model's) with its reach, the noise floor, and the raw model's where it has its own.
         */
        Want jvm(Jvm j) {
            n("jvm", j.calibrated().value()).e("jvm_calibrated", j.calibrated()).e("jvm_raw", j.raw());
            e("aa", j.aa()).n("noise_floor", j.aa().reach());
            return j.aaRaw() == null ? this : e("aa_raw", j.aaRaw());
        }

        /** The prediction and the implied cost per operation, each with its estimate within each round, and the measured cost. */
        Want predicted(Predicted p) {
            return n("predicted", p.value()).e("predicted_over_rounds", p.overRounds()).n("implied_op_ns", p.implied())
                    .e("implied_op_ns_over_rounds", p.impliedOverRounds()).n("measured_op_ns", p.measured())
                    .e("measured_op_ns_over_rounds", new Interval(p.measured(), p.measured(), p.measured(), 2));
        }

        /** The lab kernel's switch A/B of {@link LabKernelFiles}: its figure at N = 1 and its A/A. */
        Want labKernel() {
            return n("kernel", LabKernelSectionsTest.IOPS.value()).e("kernel_estimate", LabKernelSectionsTest.IOPS)
                    .e("aa_kernel", LabKernelSectionsTest.IOPS_AA);
        }
    }

    private JsonNode headline(Path run, String fix) throws IOException {
        Fixes.notebook(run);
        return JSON.readTree(run.resolve("summary.json").toFile()).path("fixes").path(fix).path("headline");
    }

    /** {@code run} with the lab kernel's switch A/B for {@code fix} beside the section's own files. */
    private static Path withLabKernel(Path run, String fix) throws IOException {
        LabKernelFiles.iops(run.resolve("raw"), fix);
        return run;
    }

    @Test
    void everyHeadlineFigureOfEveryFixIsTheValueWorkedByHand() throws IOException {
        Map<String, JsonNode> got = new LinkedHashMap<>();
        Path primitives = tmp.resolve("primitives");
        lab.results.RunFolder.copyTree(PRIMITIVES, primitives);
        got.put("primitives", headline(primitives, "primitives"));
        got.put("dm-css-ref", headline(withLabKernel(DmCssRefSectionTest.run(tmp.resolve("dcr")), "dm-css-ref"), "dm-css-ref"));
        got.put("zram-init-lock", headline(withLabKernel(ZramInitLockSectionTest.run(tmp.resolve("zil")), "zram-init-lock"),
                "zram-init-lock"));
        Path partAcct = PartAcctSectionTest.run(tmp.resolve("pa"));
        PartAcctSectionTest.calibrate(partAcct.resolve("raw/part-acct"), 0);
        got.put("part-acct", headline(withLabKernel(partAcct, "part-acct"), "part-acct"));
        got.put("dm-blkcg-clone", headline(lab.fix.dmblkcgclone.Fixture.run(tmp.resolve("dbc")), "dm-blkcg-clone"));
        got.put("thin-bufio-lock", headline(withLabKernel(ThinBufioLockSectionTest.run(tmp.resolve("tbl")), "thin-bufio-lock"),
                "thin-bufio-lock"));

        Map<String, Want> want = new LinkedHashMap<>();
        // primitives (lab.notebook.NotebookTest): jvm 2 × 5.641799072310154 / 73.60957514948554 (atomic-refcount's getPut, its
        // throughput at 2 threads over 1), kernel 422556.221889 / 196539.230385 (randread-j2 over -j1, fio), one round each;
        // a quick run: ±5%
        want.put("primitives", new Want().n("jvm", 0.15328981483326998)
                .e("jvm_raw", new Interval(0.15328981483326998, Double.NaN, Double.NaN, 1)).n("kernel", 2.149984107810212)
                .e("kernel_estimate", new Interval(2.149984107810212, Double.NaN, Double.NaN, 1)).n("target", 0.05));
        want.put("dm-css-ref", new Want().n("seed", 1.74).n("target", 0.02).jvm(DmCssRefSectionTest.JVM)
                .e("jvm_raw_vs_percpu", DmCssRefSectionTest.RAW_VS_PERCPU)
                .e("jvm_calibrated_vs_percpu", DmCssRefSectionTest.CALIBRATED_VS_PERCPU)
                .predicted(DmCssRefSectionTest.PREDICTION).n("base_ns", 2000).labKernel());
        want.put("zram-init-lock", new Want().n("seed", 1.023).n("target", 0.02).jvm(ZramInitLockSectionTest.JVM)
                .predicted(ZramInitLockSectionTest.PREDICTION).n("base_ns", 3000).labKernel());
        want.put("part-acct", new Want().n("seed", 1.15).n("seed_first_two", 1.08).n("target", 0.02).jvm(PartAcctSectionTest.JVM)
                .predicted(PartAcctSectionTest.PREDICTION).n("base_ns", 1000).labKernel());
        want.put("dm-blkcg-clone", new Want().n("seed", 1.92).n("target", 0.02).jvm(DmBlkcgCloneSectionTest.JVM)
                .n("jvm_lost", DmBlkcgCloneSectionTest.LOST.value()).e("jvm_lost_raw", DmBlkcgCloneSectionTest.LOST)
                .e("jvm_lost_calibrated", DmBlkcgCloneSectionTest.LOST).n("predicted", 2.0)
                .n("kernel", DmBlkcgCloneSectionTest.KERNEL_GUEST.value()).e("kernel_estimate", DmBlkcgCloneSectionTest.KERNEL_GUEST));
        want.put("thin-bufio-lock", new Want().n("seed", 1.55).n("target", 0.02).jvm(ThinBufioLockSectionTest.JVM)
                .predicted(ThinBufioLockSectionTest.PREDICTION).n("base_ns", 1000).labKernel());

        assertEquals(Fixes.ALL.stream().map(u -> u.fix().id()).toList(), java.util.List.copyOf(want.keySet()),
                "every fix, in the notebook's order");
        want.forEach((fix, w) -> check(fix, got.get(fix), w.figures));
    }

    /**
     * Every number of {@code h} is {@code want}'s, every estimate ({@code {value, ci95, rounds}}) its interval, to the
     * 6 decimals summary.json writes; a null is not worked out; and every figure worked out is there.
     */
    private static void check(String fix, JsonNode h, Map<String, Object> want) {
        assertTrue(h.isObject(), fix + ": no headline");
        Set<String> seen = new TreeSet<>();
        h.fields().forEachRemaining(f -> {
            String what = fix + " " + f.getKey();
            JsonNode v = f.getValue();
            Object w = want.get(f.getKey());
            if (v.isNumber()) {
                assertTrue(w instanceof Double, what + " = " + v + ": a figure not worked out by hand");
                near((Double) w, v.asDouble(), 1e-9, what);
                seen.add(f.getKey());
            } else if (v.isObject() && v.has("value")) {
                assertTrue(w instanceof Interval, what + " = " + v + ": an estimate not worked out by hand");
                pin((Interval) w, v, what);
                if (v.has("self_test")) {
                    assertEquals("holds 1", v.path("self_test").asText(), what);
                }
                seen.add(f.getKey());
            } else if (v.isNull()) {
                assertNull(w, what + ": null, worked out as " + w);
            } else {
                assertTrue(v.isTextual(), what + " = " + v + ": neither a figure, an estimate, text nor null");
            }
        });
        assertEquals(new TreeSet<>(want.keySet()), seen, fix + ": the figures worked out by hand and the headline's");
    }
}
