package lab.cli;

import lab.fix.Adaptive;
import lab.fix.Rounds;
import lab.fix.Fixes;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import lab.results.RunFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lab demo}: the main job. {@code pair --quick} for every fix the lab models, in one run
 * folder: the JVM side always; the kernel side where root allows (else the notebook says what
 * was skipped and what would enable it).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"The main job: ./lab pair --quick for every modelled fix.",
                "The fixes today: the primitives calibration with zram as the per-I/O floor,",
                "dm-css-ref, zram-init-lock, part-acct, dm-blkcg-clone and thin-bufio-lock, into",
                "one results/demo-<UTC time>/ with manifest.json, raw/, charts/, flamegraphs/,",
                "summary.json and NOTEBOOK.md. As root with qemu it also builds one lab kernel,",
                "6.1 (Debian's guest kernel's version), and runs each switched fix's",
                "before/after on it (as pair --kernel lab --quick); thin-bufio-lock's switch is",
                "on 6.12, run by ./lab pair thin-bufio-lock. The kernel side needs root;",
                "without it, it is skipped and said so. Measured on 2 cores as root from a",
                "fresh clone: 28 min 54 s, 9.7 of them building the lab kernel (once), and",
                "19 min 38 s with it built."})
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--results", paramLabel = "DIR", description = "results folder (default: results/ in the lab)")
    Path results;

    @Option(names = "--no-flamegraphs", description = "skip the async-profiler flamegraphs")
    boolean noFlamegraphs;

    @Override
    public Integer call() throws Exception {
        RunFolder run = RunFolder.start(results == null ? Lab.root().resolve("results") : results, RunFolder.newId("demo"));
        try {
            return PairRun.run(Fixes.pairings(), run, true, Rounds.defaultThreads(), 1, Adaptive.budget(null, true), !noFlamegraphs, "lab", true,
                    LabKernelSteps.GUEST_SOURCE, System.err);
        } catch (Exception e) {
            run.abandon();
            throw e;
        }
    }
}
