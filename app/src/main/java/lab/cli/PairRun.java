package lab.cli;

import lab.fix.AmplifiedModel;
import lab.fix.GuestModel;
import lab.fix.Pairing;
import lab.fix.Steps;
import lab.fix.Fixes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.notebook.HeadlineWords;
import lab.notebook.Notebook;
import lab.results.Manifest;
import lab.results.RunFolder;

/**
 * One {@code pair} (or {@code demo}) run: the lab kernel's build where a fix has a switch in it
 * ({@link LabKernelSteps}); for each fix, the kernel scenario (first: its CPU per I/O calibrates
 * the model), its switch A/B on the lab kernel, the JVM benchmark, the model at the guest's CPU per
 * I/O where the A/B ran ({@link GuestModel}) and the flamegraphs into one run folder; the lab kernel against Debian's; then the notebook. A step that fails or cannot run
 * is recorded in {@code raw/steps.tsv} and the notebook says so; the other steps' results are
 * kept. The folder is committed (renamed from its {@code .partial} name) in every case but an
 * exception outside the steps.
 */
final class PairRun {
    private PairRun() {}

    /**
     * Returns the exit code: 0 when every step ran or was skipped for a stated reason, 1 when one
     * failed. {@code labQuick}: the lab kernel's A/B and overhead check in their quick form;
     * {@code labSource}: the one lab kernel source to build (null: each the run's switches need).
     */
    static int run(List<Pairing> pairings, RunFolder run, boolean quick, List<Integer> threads, int rounds, long headlineBudgetS,
                   boolean flamegraphs, String kernelChoice, boolean labQuick, String labSource, PrintStream progress) throws Exception {
        Path root = Lab.root();
        Steps steps = new Steps(run.raw(), progress);
        Map<String, Object> manifest = Manifest.describe(root, Lab.commandLine, "jvm");
        manifest.put("run_id", run.finalDir().getFileName().toString());
        Map<String, Object> env = new LinkedHashMap<>();
        manifest.put("environment", env);
        manifest.put("quick", quick);
        manifest.put("threads", threads);
        manifest.put("rounds", rounds);
        manifest.put("headline_budget_s", headlineBudgetS);
        manifest.put("lab_kernel", kernelChoice);
        manifest.put("lab_ab", labQuick ? "quick" : "full");
        Map<String, Object> jmh = new LinkedHashMap<>();
        pairings.forEach(p -> jmh.put(p.fixId(), p.jmhSettings(quick)));
        manifest.put("jmh", jmh);
        Manifest.reproducer(manifest, root, run.raw(), Lab.versions());
        run.writeJson("manifest.json", manifest);
        LabKernelSteps lab = new LabKernelSteps(root, run.raw(), steps, labQuick, pairings.stream().map(Pairing::fixId).toList(),
                LabKernelSteps.whyNot(root, kernelChoice), env, labSource);
        boolean failed = !lab.build();
        for (Pairing p : pairings) {
            String fix = p.fixId();
            Pairing.Ctx c = new Pairing.Ctx(run.dir(), run.raw().resolve(fix), run.dir().resolve("flamegraphs").resolve(fix),
                    quick, threads, rounds, headlineBudgetS, steps, progress);
            Files.createDirectories(c.raw());
            env.put(fix + "/jvm", "jvm");
            // the kernel side first: its CPU per I/O calibrates the model's base cost
            failed |= !kernel(root, p, c, quick, env);
            failed |= !lab.lab(fix);
            failed |= !step(steps, fix, "jvm", p.jvmStep(threads, quick), () -> p.jvm(c));
            GuestModel gm = p.guestModel();
            if (gm != null && GuestModel.hasAb(c.raw())) {
                failed |= !step(steps, fix, "lab-kernel-model", gm.step(), () -> gm.run(c));
            }
            AmplifiedModel am = p.amplifiedModel();
            if (am != null && GuestModel.hasAb(c.raw()) && !labQuick) {
                failed |= !step(steps, fix, "lab-kernel-amplified", am.step(), () -> am.run(c));
                failed |= !step(steps, fix, "lab-kernel-amplified-guest", am.guestStep("lab"),
                        () -> am.runInGuest(c, "lab", LabKernelSteps.jmhGuest(root, run.dir())));
            }
            if (flamegraphs) {
                failed |= !step(steps, fix, "flamegraphs", p.flamegraphStep(), () -> p.flamegraphs(c));
            } else {
                steps.end(fix, "flamegraphs", "skipped", "--no-flamegraphs");
            }
            landed(run.dir(), fix, progress);
        }
        failed |= !lab.overhead();
        failed |= !lab.refscale();
        run.writeJson("manifest.json", manifest);
        steps.begin("all", "notebook", "NOTEBOOK.md, charts/, summary.json from raw/");
        Notebook.Written w = Fixes.notebook(run.dir());
        Path done = run.commit();
        progress.println("lab: wrote " + done.resolve("NOTEBOOK.md") + (w.gaps().isEmpty() ? "" : " (" + w.gaps().size() + " gap(s) listed in it)"));
        System.out.println(done);
        return failed ? Lab.EXIT_FAILED : 0;
    }

    /**
     * A fix's result as it lands: its headline in words, then the seed, the model and the kernel a
     * line each ({@link HeadlineWords}), from its raw/ as the run left it. A headline that cannot
     * be made yet is said in one line; the notebook at the end has the whole story either way.
     */
    static void landed(Path runDir, String fix, PrintStream progress) {
        try {
            Optional<Map<String, Object>> h = Fixes.headline(runDir, fix);
            if (h.isEmpty()) {
                progress.println("lab: " + fix + " done: no headline from its raw/ (the notebook at the end lists what is missing)");
                return;
            }
            String cores = Runtime.getRuntime().availableProcessors() + " cores";
            progress.println("lab: " + fix + " done. " + HeadlineWords.sentence(fix, h.get(), cores).replace("**", ""));
            HeadlineWords.lines(h.get()).forEach(l -> progress.println("lab:   " + l));
        } catch (IOException | RuntimeException e) {
            progress.println("lab: " + fix + " done: its headline could not be read yet (" + e.getMessage() + "); the notebook at the end has it");
        }
    }

    private static boolean kernel(Path root, Pairing p, Pairing.Ctx c, boolean quick, Map<String, Object> env) throws Exception {
        String fix = p.fixId();
        String why = KernelScenario.whyNot(root);
        if (why != null) {
            steps(c).end(fix, "kernel", "skipped", why);
            env.put(fix + "/kernel", "skipped: " + why);
            return true;
        }
        return scenario(root, fix, p.kernelScenario(), c.raw().resolve("kernel"), quick, steps(c), env);
    }

    /**
     * Runs {@code scenario} into {@code out} ({@code raw/FIX/kernel}) and records its step; returns
     * whether it ran. A scenario that exits non-zero (a part failed: its guest VM wrote no exit
     * status, say) keeps what its other parts wrote, for the notebook; its step's line says so,
     * with the parts its {@code FAILED} names and why.
     */
    static boolean scenario(Path root, String fix, String scenario, Path out, boolean quick, Steps steps, Map<String, Object> env)
            throws Exception {
        String dir = "raw/" + fix + "/kernel/";
        steps.begin(fix, "kernel", "scenario " + scenario + (quick ? " --quick" : "") + " (log: " + dir + "scenario.log)");
        int rc = KernelScenario.run(root, scenario, out, quick, true);
        Path envTxt = out.resolve("env.txt");
        env.put(fix + "/kernel", Files.exists(envTxt) ? Files.readAllLines(envTxt).stream()
                .filter(l -> l.startsWith("environment: ")).map(l -> l.substring(13)).findFirst().orElse("native") : "unknown");
        if (rc != 0) {
            Path failed = out.resolve("FAILED");
            String parts = Files.exists(failed) ? String.join("; ", Files.readAllLines(failed).stream().filter(l -> !l.isBlank()).toList()) : "";
            steps.end(fix, "kernel", "failed", "kernel-scripts/lab-kernel.sh run " + scenario + " exited " + rc
                    + (parts.isEmpty() ? "" : "; failed part(s), " + dir + "FAILED: " + parts + "; the other parts' results are kept")
                    + "; see " + dir + "scenario.log");
            return false;
        }
        steps.end(fix, "kernel", "ran", "./lab kernel run " + scenario + (quick ? " --quick" : "") + " (with LAB_OUT)");
        return true;
    }

    private static Steps steps(Pairing.Ctx c) {
        return c.steps();
    }

    interface Body {
        void run() throws Exception;
    }

    static boolean step(Steps steps, String fix, String step, String what, Body body) throws Exception {
        steps.begin(fix, step, what);
        try {
            body.run();
            steps.end(fix, step, "ran", what);
            return true;
        } catch (Exception e) {
            steps.end(fix, step, "failed", e.getClass().getSimpleName() + ": " + e.getMessage());
            return false;
        }
    }
}
