package lab.cli;

import lab.fix.Adaptive;
import lab.fix.Rounds;
import lab.fix.FixUnit;
import lab.fix.Fixes;
import lab.fix.Pairing;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lab.results.RunFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lab pair FIX...}: the JVM model's benchmark, the real kernel's scenario and the notebook, in one run folder. */
@Command(name = "pair", mixinStandardHelpOptions = true,
        description = {"Measure each FIX before and after, on the JVM and real devices.",
                "Runs each FIX's JMH benchmark (thread sweep, interleaved rounds), one",
                "async-profiler flamegraph per variant, and its kernel scenario on real",
                "devices (as root; skipped with the reason otherwise), then writes",
                "NOTEBOOK.md, charts/ and summary.json into results/pair-FIX-<UTC time>/",
                "(several fixes: results/pair-multi-<UTC time>/).",
                "With --kernel lab (the default), as root with qemu, the lab kernel",
                "(Debian's linux-source, each fix's before behind a runtime switch) is",
                "built once, each FIX with a switch (kernel-scripts/scenarios/FIX/lab-ab.sh)",
                "runs it before/after in the guest VM, and the lab kernel is measured",
                "against Debian's once at the end.",
                "FIX: primitives (the calibration entry); the fixes join as they are",
                "modelled (see the notebook's list)."})
final class PairCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FIX", arity = "1..*", description = "fix id(s), run in the order given")
    List<String> fixes;

    @Option(names = "--quick", description = "short iterations and runs (minutes, not tens of minutes)")
    boolean quick;

    @Option(names = "--threads", split = ",", paramLabel = "N[,N...]", description = "thread counts (default: 1..cores; must include 1)")
    List<Integer> threads;

    @Option(names = "--rounds", description = "JMH rounds interleaving the thread counts (default: 1 with --quick, else 3)")
    Integer rounds;

    @Option(names = "--headline-budget", paramLabel = "S",
            description = "seconds of rounds of the headline alone added after the run's rounds by Stein's two-stage design"
                    + " (its pilot, then the rounds the pilot's spread asks for; default: 30 with --quick, else 900; 0: none)")
    Long headlineBudget;

    @Option(names = "--no-flamegraphs", description = "skip the async-profiler flamegraphs")
    boolean noFlamegraphs;

    @Option(names = "--kernel", paramLabel = "lab|debian",
            description = "lab (default): also run each fix's switch on the lab kernel; debian: Debian's kernel only")
    String kernel = "lab";

    @Option(names = "--lab-ab", paramLabel = "quick|full",
            description = "the lab kernel's A/B and overhead check: quick (1 boot, 3 rounds of 1 s over N = 1, 16) or full"
                    + " (3 boots of 3 rounds of 2 s over N = 1, 2, 4, ..., 128; the model amplified alike; refscale beside the"
                    + " JVM's primitives); default: quick with --quick, else full")
    String labAb;

    @Option(names = "--results", paramLabel = "DIR", description = "results folder (default: results/ in the lab)")
    Path results;

    @Option(names = "--id", paramLabel = "RUN-ID",
            description = "run id (default: pair-FIX-<UTC time>, or pair-multi-<UTC time> for several fixes)")
    String id;

    @Override
    public Integer call() throws Exception {
        List<Pairing> pairings = new ArrayList<>();
        for (String fix : fixes) {
            String bad = check(fix, pairings);
            if (bad != null) {
                System.err.println("lab: " + bad);
                return Lab.EXIT_BAD_INPUT;
            }
            pairings.add(Fixes.byId(fix).orElseThrow().pairing());
        }
        if (labAb != null && !List.of("quick", "full").contains(labAb)) {
            System.err.println("lab: --lab-ab must be quick or full, not '" + labAb + "'");
            return Lab.EXIT_BAD_INPUT;
        }
        if (!LabKernelSteps.CHOICES.contains(kernel)) {
            System.err.println("lab: --kernel must be one of " + LabKernelSteps.CHOICES + ", not '" + kernel + "'");
            return Lab.EXIT_BAD_INPUT;
        }
        List<Integer> t = threads == null ? Rounds.defaultThreads() : threads;
        int r = rounds == null ? (quick ? 1 : 3) : rounds;
        String bad = checkSweep(t, r);
        if (bad == null && headlineBudget != null && headlineBudget < 0) {
            bad = "--headline-budget must be >= 0 seconds, not " + headlineBudget;
        }
        if (bad != null) {
            System.err.println("lab: " + bad);
            return Lab.EXIT_BAD_INPUT;
        }
        RunFolder run = RunFolder.start(results == null ? Lab.root().resolve("results") : results,
                id == null ? RunFolder.newId(fixes.size() == 1 ? "pair-" + fixes.getFirst() : "pair-multi") : id);
        try {
            return PairRun.run(pairings, run, quick, t, r, Adaptive.budget(headlineBudget, quick), !noFlamegraphs, kernel, labAb == null ? quick : labAb.equals("quick"),
                    null, System.err);
        } catch (Exception e) {
            run.abandon();
            throw e;
        }
    }

    /** Null when {@code fix} can join the run after {@code chosen}, else why not. */
    private static String check(String fix, List<Pairing> chosen) {
        FixUnit unit = Fixes.byId(fix).orElse(null);
        if (unit == null) {
            return "unknown fix '" + fix + "'; known: " + Fixes.ALL.stream().map(u -> u.fix().id()).toList();
        }
        if (unit.pairing() == null) {
            return fix + " is not yet modelled; pairable now: " + Fixes.pairable();
        }
        if (chosen.stream().anyMatch(p -> p.fixId().equals(fix))) {
            return "fix '" + fix + "' is named twice";
        }
        return null;
    }

    /** Null when the sweep is usable, else what is wrong with it. */
    static String checkSweep(List<Integer> threads, int rounds) {
        if (rounds < 1 || threads.isEmpty() || threads.stream().anyMatch(n -> n < 1 || n > 64)) {
            return "--rounds must be >= 1 and --threads values in 1..64";
        }
        if (!threads.contains(1)) {
            return "--threads must include 1: scaling is measured against one thread";
        }
        return null;
    }
}
