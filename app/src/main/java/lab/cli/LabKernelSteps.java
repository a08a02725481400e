package lab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.analysis.parse.LabAb;
import lab.fix.Steps;
import lab.notebook.KernelRuns;

/**
 * The lab kernel's steps of a {@code pair} run (Debian's kernel source with each fix's "before"
 * behind a runtime switch, booted in the guest VM): the build, once, first
 * ({@code all/lab-kernel-build}, its log {@code raw/lab-kernel/build.log}); per fix with a switch
 * (one that has {@code kernel-scripts/scenarios/<fix>/lab-ab.sh}: nothing else says so) its
 * switch A/B ({@code <fix>/lab-kernel} into {@code raw/<fix>/lab-kernel/}); and once, after every
 * fix, the lab kernel against Debian's ({@code all/lab-kernel-overhead} into
 * {@code raw/lab-kernel/}) and, in a full A/B, the kernel's own price of each operation beside the
 * JVM's on the same vCPUs ({@code all/lab-kernel-refscale}, refscale and the JVM's primitives
 * into {@code raw/lab-kernel/}). Without a fix that has a switch there are none. Each is skipped with
 * the reason where the lab kernel cannot run ({@code --kernel debian}, no root, no qemu) and
 * after a failed build; a failed step fails the run and the others are kept.
 */
final class LabKernelSteps {
    /** The values of {@code --kernel}: the lab kernel's steps on, or Debian's kernel alone. */
    static final List<String> CHOICES = List.of("lab", "debian");
    static final String ALL = "all";
    static final String BUILD = "lab-kernel-build";
    static final String AB = "lab-kernel";
    static final String OVERHEAD = "lab-kernel-overhead";
    static final String REFSCALE = "lab-kernel-refscale";
    private static final String DIR = "lab-kernel";
    /** The lab kernel source of Debian's guest kernel's version: the overhead check's, and the demo's one build. */
    static final String GUEST_SOURCE = "6.1";

    private final Path root;
    private final Path raw;
    private final Steps steps;
    private final boolean quick;
    private final List<String> switched;
    /** Switched fixes of the run whose switch is on a source this run does not build. */
    private final List<String> elsewhere;
    private final String source;
    private final Map<String, Object> env;
    private String skip;

    /**
     * The steps of a run writing under {@code raw} for {@code fixes}; {@code why} is why the lab
     * kernel cannot run (null: it can); {@code env} the manifest's environment, which gets each
     * switch run's environment; {@code source} the one lab kernel source to build (null: each
     * the switches live in), the fixes whose switch is elsewhere skipped saying how to run them.
     */
    LabKernelSteps(Path root, Path raw, Steps steps, boolean quick, List<String> fixes, String why, Map<String, Object> env,
                   String source) {
        this.root = root;
        this.raw = raw;
        this.steps = steps;
        this.quick = quick;
        List<String> all = fixes.stream().filter(f -> hasSwitch(root, f)).toList();
        this.elsewhere = source == null ? List.of() : all.stream().filter(f -> !onSource(root, f, source)).toList();
        this.switched = all.stream().filter(f -> !elsewhere.contains(f)).toList();
        this.source = source;
        this.skip = why;
        this.env = env;
    }

    /** Whether {@code fix}'s switch is in the lab kernel built from {@code source}: its patch is there. */
    static boolean onSource(Path root, String fix, String source) {
        return Files.isRegularFile(root.resolve("kernel-scripts/kernel/patches").resolve(source).resolve(fix + ".patch"));
    }

    /** Why the lab kernel's steps cannot run with {@code --kernel choice}, or null when they can. */
    static String whyNot(Path root, String choice) {
        if (choice.equals("debian")) {
            return "--kernel debian: the kernel side runs on Debian's kernel only";
        }
        String why = KernelScenario.whyNot(root);
        if (why != null) {
            return why;
        }
        return onPath("qemu-system-x86_64") ? null : "the lab kernel boots in the guest VM, and qemu-system-x86_64 is not installed";
    }

    /** Whether the lab kernel has {@code fix}'s before behind a switch: its scenario has a {@code lab-ab.sh}. */
    static boolean hasSwitch(Path root, String fix) {
        return Files.isRegularFile(root.resolve("kernel-scripts/scenarios").resolve(fix).resolve("lab-ab.sh"));
    }

    private static boolean onPath(String exe) {
        String path = System.getenv("PATH");
        return path != null && List.of(path.split(":")).stream().anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, exe)));
    }

    /** The build (or the cached kernel); false when it failed, and the later steps are then skipped. */
    boolean build() throws IOException, InterruptedException {
        if (switched.isEmpty()) {
            return true;
        }
        if (skip != null) {
            steps.end(ALL, BUILD, "skipped", skip);
            return true;
        }
        Path dir = raw.resolve(DIR);
        List<String> args = new ArrayList<>(List.of("build", "--for"));
        args.addAll(switched); // each source these switches live in (6.1; thin-bufio-lock's 6.12)
        boolean ok = run(ALL, BUILD, args, dir, dir.resolve("build.log"));
        if (!ok) {
            skip = "lab kernel build failed: see raw/" + DIR + "/build.log";
        }
        return ok;
    }

    /** {@code fix}'s switch A/B, where it has a switch; false when it failed. */
    boolean lab(String fix) throws IOException, InterruptedException {
        if (elsewhere.contains(fix)) {
            String why = "this run builds one lab kernel, " + source + " (the version of Debian's guest kernel), and " + fix
                    + "'s switch is on another source (kernel-scripts/kernel/patches/): `sudo ./lab pair " + fix
                    + " --quick` builds that kernel once (about 10 minutes on 2 cores) and runs it";
            steps.end(fix, AB, "skipped", why);
            env.put(fix + "/" + AB, "skipped: " + why);
            return true;
        }
        if (!switched.contains(fix)) {
            return true;
        }
        if (skip != null) {
            steps.end(fix, AB, "skipped", skip);
            env.put(fix + "/" + AB, "skipped: " + skip);
            return true;
        }
        Path out = raw.resolve(fix).resolve(DIR);
        boolean ok = run(fix, AB, args("lab-ab", fix), out, out.resolve("scenario.log"));
        env.put(fix + "/" + AB, guestEnvironment(KernelRuns.readEnv(out.resolve(LabAb.FACTS))));
        return ok;
    }

    /**
     * The manifest's environment of a lab kernel run from its facts: the accelerator, and where the
     * facts have them (runs since the guest recorded them) qemu's vCPUs and CPU model, e.g.
     * {@code "tcg, qemu -smp 2, cpu qemu64"}.
     */
    static String guestEnvironment(Map<String, String> facts) {
        String e = facts.getOrDefault("env", "unknown");
        String vcpus = facts.getOrDefault("vcpus", "");
        String cpu = facts.getOrDefault("qemu_cpu", "").replaceFirst(" \\(.*", "");
        return vcpus.isBlank() ? e : e + ", qemu -smp " + vcpus + (cpu.isBlank() ? "" : ", cpu " + cpu);
    }

    /**
     * The lab kernel against Debian's, once after every fix; false when it failed. Debian's guest
     * kernel is 6.1, so the check boots the 6.1 lab kernel: skipped, saying so, where no fix of the
     * run has its switch there ({@code kernel-scripts/kernel/patches/6.1/<fix>.patch}).
     */
    boolean overhead() throws IOException, InterruptedException {
        if (switched.isEmpty()) {
            return true;
        }
        if (skip != null) {
            steps.end(ALL, OVERHEAD, "skipped", skip);
            return true;
        }
        if (switched.stream().noneMatch(f -> onSource(root, f, GUEST_SOURCE))) {
            steps.end(ALL, OVERHEAD, "skipped", "the check sets the " + GUEST_SOURCE + " lab kernel against Debian's " + GUEST_SOURCE
                    + ", and no fix of this run has its switch on " + GUEST_SOURCE + " (" + String.join(", ", switched)
                    + ": kernel-scripts/kernel/patches/)");
            return true;
        }
        Path dir = raw.resolve(DIR);
        return run(ALL, OVERHEAD, args("overhead"), dir, dir.resolve("overhead.log"));
    }

    /**
     * refscale's types in the 6.1 lab kernel beside the JVM's kinds in the same guest and on the
     * host ({@code lab-kernel.sh refscale}), once, in a full A/B only (a quick run leaves it to
     * {@code ./lab kernel refscale}); false when it failed.
     */
    boolean refscale() throws IOException, InterruptedException {
        if (switched.isEmpty() || quick) {
            return true;
        }
        if (skip != null) {
            steps.end(ALL, REFSCALE, "skipped", skip);
            return true;
        }
        if (switched.stream().noneMatch(f -> onSource(root, f, GUEST_SOURCE))) {
            steps.end(ALL, REFSCALE, "skipped", "refscale runs on the " + GUEST_SOURCE + " lab kernel, and no fix of this run has its"
                    + " switch there (" + String.join(", ", switched) + ")");
            return true;
        }
        Path dir = raw.resolve(DIR);
        return run(ALL, REFSCALE, args("refscale"), dir, dir.resolve("refscale.log"));
    }

    /**
     * The JVM model's JMH runs in the guest ({@code lab-kernel.sh jmh-guest}, its log
     * {@code jmh-guest.log} in the folder it writes), for {@link lab.fix.AmplifiedModel#runInGuest}.
     */
    static lab.fix.AmplifiedModel.GuestLauncher jmhGuest(Path root, Path runDir) {
        return (args, out) -> KernelScenario.script(root, args, out, out.resolve("jmh-guest.log"), runDir, () -> {});
    }

    private List<String> args(String... words) {
        List<String> a = new ArrayList<>(List.of(words));
        if (quick) {
            a.add("--quick");
        }
        return a;
    }

    private boolean run(String fix, String step, List<String> args, Path out, Path log) throws IOException, InterruptedException {
        String what = "kernel-scripts/lab-kernel.sh " + String.join(" ", args);
        String rel = raw.getParent().relativize(log).toString();
        steps.begin(fix, step, what + " (log: " + rel + ")");
        int rc = KernelScenario.script(root, args, out, log, raw.getParent(), () -> {});
        if (rc != 0) {
            steps.end(fix, step, "failed", what + " exited " + rc + "; see " + rel);
            return false;
        }
        steps.end(fix, step, "ran", what + " (LAB_OUT=" + raw.getParent().relativize(out) + ")");
        return true;
    }
}
