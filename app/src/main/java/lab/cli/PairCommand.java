package lab.cli;

import lab.fix.Rounds;
import lab.fix.FixUnit;
import lab.fix.Fixes;
import lab.fix.Pairing;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import lab.results.RunFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lab pair FIX}: the JVM model's benchmark, the real kernel's scenario and the notebook, in one run folder. */
@Command(name = "pair", mixinStandardHelpOptions = true,
        description = {"Run a fix's JMH benchmark (thread sweep, interleaved rounds), one async-profiler",
                "flamegraph per variant, and its kernel scenario on real devices (as root; skipped",
                "with the reason otherwise), then write NOTEBOOK.md, charts/ and summary.json into",
                "results/pair-FIX-<UTC time>/. FIX: primitives (the calibration entry); the fixes",
                "join as they are modelled (see the notebook's list)."})
final class PairCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FIX", description = "fix id")
    String fix;

    @Option(names = "--quick", description = "short iterations and runs (minutes, not tens of minutes)")
    boolean quick;

    @Option(names = "--threads", split = ",", paramLabel = "N[,N...]", description = "thread counts (default: 1..cores; must include 1)")
    List<Integer> threads;

    @Option(names = "--rounds", description = "JMH rounds interleaving the thread counts (default: 1 with --quick, else 3)")
    Integer rounds;

    @Option(names = "--no-flamegraphs", description = "skip the async-profiler flamegraphs")
    boolean noFlamegraphs;

    @Option(names = "--results", paramLabel = "DIR", description = "results folder (default: results/ in the lab)")
    Path results;

    @Option(names = "--id", paramLabel = "RUN-ID", description = "run id (default: pair-FIX-<UTC time>)")
    String id;

    @Override
    public Integer call() throws Exception {
        FixUnit unit = Fixes.byId(fix).orElse(null);
        if (unit == null) {
            System.err.println("lab: unknown fix '" + fix + "'; known: " + Fixes.ALL.stream().map(u -> u.fix().id()).toList());
            return Lab.EXIT_BAD_INPUT;
        }
        Pairing p = unit.pairing();
        if (p == null) {
            System.err.println("lab: " + fix + " is not yet modelled; pairable now: " + Fixes.pairable());
            return Lab.EXIT_BAD_INPUT;
        }
        List<Integer> t = threads == null ? Rounds.defaultThreads() : threads;
        int r = rounds == null ? (quick ? 1 : 3) : rounds;
        String bad = checkSweep(t, r);
        if (bad != null) {
            System.err.println("lab: " + bad);
            return Lab.EXIT_BAD_INPUT;
        }
        RunFolder run = RunFolder.start(results == null ? Lab.root().resolve("results") : results,
                id == null ? RunFolder.newId("pair-" + fix) : id);
        try {
            return PairRun.run(List.of(p), run, quick, t, r, !noFlamegraphs, System.err);
        } catch (Exception e) {
            run.abandon();
            throw e;
        }
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
