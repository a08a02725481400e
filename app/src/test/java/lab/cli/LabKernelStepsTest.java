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
import lab.fix.Steps;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lab kernel's steps against a stand-in {@code lab-kernel.sh} in a stand-in lab: one fix with
 * a switch on 6.1 ({@code zram-init-lock}: its scenario has {@code lab-ab.sh}), one whose switch is
 * 6.12's ({@code thin-bufio-lock}: no 6.1 patch), one without ({@code dm-css-ref}); what {@code raw/steps.tsv} records when everything runs, when the build
 * fails, when a switch run fails, and when the lab kernel cannot run at all.
 */
class LabKernelStepsTest {
    @TempDir
    Path tmp;
    Path lab;
    Path raw;
    final Map<String, Object> env = new LinkedHashMap<>();

    @BeforeEach
    void lab() throws Exception {
        lab = tmp.resolve("lab");
        Files.createDirectories(lab.resolve("kernel-scripts/scenarios/zram-init-lock"));
        Files.writeString(lab.resolve("kernel-scripts/scenarios/zram-init-lock/lab-ab.sh"), "");
        Files.createDirectories(lab.resolve("kernel-scripts/scenarios/dm-css-ref"));
        Files.createDirectories(lab.resolve("kernel-scripts/kernel/patches/6.1"));
        Files.writeString(lab.resolve("kernel-scripts/kernel/patches/6.1/zram-init-lock.patch"), "");
        // a fix whose switch is 6.12's only
        Files.createDirectories(lab.resolve("kernel-scripts/scenarios/thin-bufio-lock"));
        Files.writeString(lab.resolve("kernel-scripts/scenarios/thin-bufio-lock/lab-ab.sh"), "");
        raw = Files.createDirectories(tmp.resolve("run/raw"));
        script(0, 0);
    }

    private void script(int buildRc, int abRc) throws Exception {
        Files.writeString(lab.resolve("kernel-scripts/lab-kernel.sh"), """
                echo "args: $*" >&2
                echo "out: $LAB_OUT lab: $LAB_ROOT"
                case $1 in
                build) exit %d ;;
                lab-ab) printf 'env: tcg\\n' > "$LAB_OUT/lab-ab.txt"; exit %d ;;
                overhead) : > "$LAB_OUT/overhead.tsv" ;;
                esac
                """.formatted(buildRc, abRc));
    }

    private LabKernelSteps steps(String why, String... fixes) {
        return new LabKernelSteps(lab, raw, new Steps(raw, new PrintStream(new ByteArrayOutputStream())), true, List.of(fixes), why, env,
                null);
    }

    private List<String> recorded() throws Exception {
        Path f = raw.resolve("steps.tsv");
        return Files.exists(f) ? Files.readAllLines(f) : List.of();
    }

    /** Runs the steps as PairRun does; returns whether none failed. */
    private static boolean all(LabKernelSteps s, String... fixes) throws Exception {
        boolean ok = s.build();
        for (String f : fixes) {
            ok &= s.lab(f);
        }
        return s.overhead() & ok;
    }

    @Test
    void theBuildThenEachSwitchedFixThenTheOverheadWithTheirLogsAndNoMachinePaths() throws Exception {
        assertTrue(all(steps(null, "dm-css-ref", "zram-init-lock"), "dm-css-ref", "zram-init-lock"));
        assertEquals(List.of(
                "all\tlab-kernel-build\tran\tkernel-scripts/lab-kernel.sh build --for zram-init-lock (LAB_OUT=raw/lab-kernel)",
                "zram-init-lock\tlab-kernel\tran\tkernel-scripts/lab-kernel.sh lab-ab zram-init-lock --quick"
                        + " (LAB_OUT=raw/zram-init-lock/lab-kernel)",
                "all\tlab-kernel-overhead\tran\tkernel-scripts/lab-kernel.sh overhead --quick (LAB_OUT=raw/lab-kernel)"), recorded());
        assertEquals("args: build --for zram-init-lock\nout: <run>/raw/lab-kernel lab: <lab>\n", Files.readString(raw.resolve("lab-kernel/build.log")));
        assertTrue(Files.readString(raw.resolve("zram-init-lock/lab-kernel/scenario.log")).contains("args: lab-ab zram-init-lock --quick"));
        assertTrue(Files.exists(raw.resolve("lab-kernel/overhead.tsv")));
        assertTrue(Files.exists(raw.resolve("lab-kernel/overhead.log")));
        assertFalse(Files.exists(raw.resolve("dm-css-ref/lab-kernel")), "a fix without lab-ab.sh gets no step");
        assertEquals(Map.of("zram-init-lock/lab-kernel", "tcg"), env);
    }

    @Test
    void aRunWhoseSwitchesAreAll612sBuildsForThemAndSkipsTheOverheadSayingWhy() throws Exception {
        assertTrue(all(steps(null, "thin-bufio-lock"), "thin-bufio-lock"));
        List<String> r = recorded();
        assertEquals("all\tlab-kernel-build\tran\tkernel-scripts/lab-kernel.sh build --for thin-bufio-lock (LAB_OUT=raw/lab-kernel)",
                r.get(0));
        assertTrue(r.get(1).startsWith("thin-bufio-lock\tlab-kernel\tran\t"), r.toString());
        assertEquals("all\tlab-kernel-overhead\tskipped\tthe check sets the 6.1 lab kernel against Debian's 6.1, and no fix of this"
                + " run has its switch on 6.1 (thin-bufio-lock: kernel-scripts/kernel/patches/)", r.get(2));
        assertFalse(Files.exists(raw.resolve("lab-kernel/overhead.tsv")), "the overhead did not run");
    }

    @Test
    void aRunOnOneSourceBuildsOnlyItAndSkipsTheOtherSwitchesSayingHowToRunThem() throws Exception {
        LabKernelSteps s = new LabKernelSteps(lab, raw, new Steps(raw, new PrintStream(new ByteArrayOutputStream())), true,
                List.of("zram-init-lock", "thin-bufio-lock"), null, env, LabKernelSteps.GUEST_SOURCE);
        assertTrue(all(s, "zram-init-lock", "thin-bufio-lock"));
        List<String> r = recorded();
        assertEquals("all\tlab-kernel-build\tran\tkernel-scripts/lab-kernel.sh build --for zram-init-lock (LAB_OUT=raw/lab-kernel)",
                r.get(0));
        assertTrue(r.get(1).startsWith("zram-init-lock\tlab-kernel\tran\t"), r.toString());
        assertEquals("thin-bufio-lock\tlab-kernel\tskipped\tthis run builds one lab kernel, 6.1 (the version of Debian's guest kernel),"
                + " and thin-bufio-lock's switch is on another source (kernel-scripts/kernel/patches/): `sudo ./lab pair thin-bufio-lock"
                + " --quick` builds that kernel once (about 10 minutes on 2 cores) and runs it", r.get(2));
        assertTrue(r.get(3).startsWith("all\tlab-kernel-overhead\tran\t"), r.toString());
        assertFalse(Files.exists(raw.resolve("thin-bufio-lock/lab-kernel")), "the 6.12 switch did not run");
        assertTrue(Files.readString(raw.resolve("lab-kernel/build.log")).contains("args: build --for zram-init-lock\n"));
        assertTrue(env.get("thin-bufio-lock/lab-kernel").toString().startsWith("skipped: this run builds one lab kernel"), env.toString());
    }

    @Test
    void aFailedBuildFailsAndSkipsTheRestSayingWhy() throws Exception {
        script(1, 0);
        LabKernelSteps s = steps(null, "zram-init-lock");
        assertFalse(s.build());
        assertTrue(s.lab("zram-init-lock"));
        assertTrue(s.overhead());
        assertEquals(List.of(
                "all\tlab-kernel-build\tfailed\tkernel-scripts/lab-kernel.sh build --for zram-init-lock exited 1; see raw/lab-kernel/build.log",
                "zram-init-lock\tlab-kernel\tskipped\tlab kernel build failed: see raw/lab-kernel/build.log",
                "all\tlab-kernel-overhead\tskipped\tlab kernel build failed: see raw/lab-kernel/build.log"), recorded());
    }

    @Test
    void aFailedSwitchRunFailsTheRunAndTheOverheadStillRuns() throws Exception {
        script(0, 3);
        assertFalse(all(steps(null, "zram-init-lock"), "zram-init-lock"));
        List<String> r = recorded();
        assertEquals("zram-init-lock\tlab-kernel\tfailed\tkernel-scripts/lab-kernel.sh lab-ab zram-init-lock --quick exited 3;"
                + " see raw/zram-init-lock/lab-kernel/scenario.log", r.get(1));
        assertTrue(r.get(2).startsWith("all\tlab-kernel-overhead\tran\t"), r.toString());
    }

    @Test
    void whereTheLabKernelCannotRunEveryStepIsSkippedWithTheReason() throws Exception {
        String why = LabKernelSteps.whyNot(lab, "debian");
        assertTrue(why.startsWith("--kernel debian"), why);
        assertTrue(all(steps(why, "zram-init-lock", "dm-css-ref"), "zram-init-lock", "dm-css-ref"));
        assertEquals(List.of("all\tlab-kernel-build\tskipped\t" + why, "zram-init-lock\tlab-kernel\tskipped\t" + why,
                "all\tlab-kernel-overhead\tskipped\t" + why), recorded());
        assertFalse(Files.exists(raw.resolve("lab-kernel")), "nothing ran");
    }

    @Test
    void withoutAFixWithASwitchThereAreNoSteps() throws Exception {
        assertTrue(all(steps(null, "dm-css-ref"), "dm-css-ref"));
        assertEquals(List.of(), recorded());
        assertTrue(LabKernelSteps.hasSwitch(lab, "zram-init-lock"));
        assertFalse(LabKernelSteps.hasSwitch(lab, "dm-css-ref"));
    }

    /** The manifest's environment of a switch run: the accelerator, with qemu's vCPUs and CPU model where the facts have them. */
    @Test
    void aSwitchRunsEnvironmentNamesTheGuestsVcpusAndCpu() {
        assertEquals("tcg, qemu -smp 2, cpu qemu64", LabKernelSteps.guestEnvironment(
                Map.of("env", "tcg", "vcpus", "2", "qemu_cpu", "qemu64 (qemu's default)")));
        assertEquals("kvm, qemu -smp 16, cpu host", LabKernelSteps.guestEnvironment(
                Map.of("env", "kvm", "vcpus", "16", "qemu_cpu", "host (-cpu host)")));
        assertEquals("tcg", LabKernelSteps.guestEnvironment(Map.of("env", "tcg", "vcpus", "", "qemu_cpu", "")),
                "facts from before the guest recorded them: the accelerator alone");
        assertEquals("unknown", LabKernelSteps.guestEnvironment(Map.of()));
    }
}
