package lab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import lab.fix.CoverageSim;
import lab.fix.Fixes;
import lab.results.Manifest;
import lab.results.RunFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lab coverage}: the sequential design's coverage as a benchmark. {@link CoverageSim} runs
 * simulated runs whose truth is known through the lab's own path (JMH files, Stein's design for the
 * headline's rounds, the sweep read back, the verdict gated by the A/A) for every line of
 * {@link CoverageSim#grid()}, {@code --runs} runs each; the unit test ({@code SequentialCoverageTest})
 * runs a few hundred, this as many as asked, into a run folder: {@code raw/coverage.tsv} (one line
 * per setting, {@link CoverageSim#ROW_HEADER}), {@code raw/design.tsv} (the designs it simulated)
 * and the notebook made from them ({@code lab.notebook.CoveragePage}), which {@code ./lab notebook}
 * remakes byte for byte.
 *
 * <p>Each setting starts from its own seed ({@code --seed} plus its place in the grid) in a scratch
 * folder of its own, so the settings run side by side on {@code --threads} threads and the file is
 * the same whatever the thread count: a figure is reproduced by the same {@code --runs} and
 * {@code --seed}.
 */
@Command(name = "coverage", mixinStandardHelpOptions = true,
        description = {"Measure the intervals' coverage on simulated runs.",
                "Runs of known truth through the lab's own path (JMH files, Stein's two-stage",
                "design for the headline's rounds, the sweep read back, the verdict gated by",
                "the A/A): quick and full, log-spreads 0.01-0.06 per round, normal and t3",
                "noise, and rounds nested in boots. Writes results/<run-id>/ with",
                "raw/coverage.tsv (coverage, the A/A's false changes, wrong effects, rounds,",
                "verdicts) and its notebook. Fixed seed: the same figures every time."})
final class CoverageCommand implements Callable<Integer> {
    /** The largest --runs: a million runs of the grid would take weeks. */
    static final int MAX_RUNS = 1_000_000;

    @Option(names = "--runs", paramLabel = "N", description = "simulated runs per setting (default: ${DEFAULT-VALUE})")
    int runs = 2000;

    @Option(names = "--seed", paramLabel = "S", description = "the first setting's seed; setting i runs from S + i (default: ${DEFAULT-VALUE})")
    long seed = 52;

    @Option(names = "--threads", paramLabel = "T", description = "settings run side by side (default: the cores)")
    Integer threads;

    @Option(names = "--results", paramLabel = "DIR", description = "results folder (default: results/ in the lab)")
    Path results;

    @Option(names = "--id", paramLabel = "RUN-ID", description = "run id (default: coverage-<UTC time>)")
    String id;

    @Override
    public Integer call() throws Exception {
        int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        Path dir = results == null ? Lab.root().resolve("results") : results;
        String why = whyNot(t, dir);
        if (why != null) {
            System.err.println("lab: coverage: " + why);
            return Lab.EXIT_BAD_INPUT;
        }
        RunFolder run = RunFolder.start(dir, id == null ? RunFolder.newId("coverage") : id);
        Path scratch = Files.createTempDirectory("lab-coverage");
        try {
            Map<String, Object> m = Manifest.describe(Lab.root(), Lab.commandLine, "jvm");
            m.put("run_id", run.finalDir().getFileName().toString());
            m.put("runs", runs);
            m.put("seed", seed);
            m.put("threads", t);
            Manifest.reproducer(m, Lab.root(), run.raw(), Lab.versions());
            run.writeJson("manifest.json", m);
            long t0 = System.nanoTime();
            List<String> rows = rows(scratch, t);
            run.writeText("raw/coverage.tsv", CoverageSim.ROW_HEADER + "\n" + String.join("\n", rows) + "\n");
            run.writeText("raw/design.tsv", CoverageSim.DESIGN_HEADER + "\n" + String.join("\n", CoverageSim.designRows()) + "\n");
            Fixes.notebook(run.dir());
            Path done = run.commit();
            System.err.printf("lab: coverage: %d settings of %d runs in %.0f s; wrote %s%n", rows.size(), runs, (System.nanoTime() - t0) / 1e9,
                    done.resolve("NOTEBOOK.md"));
            System.out.println(done);
            return 0;
        } catch (Exception e) {
            run.abandon();
            throw e;
        } finally {
            RunFolder.deleteTree(scratch);
        }
    }

    /** Why the options cannot make a run in {@code dir}; null when they can. */
    String whyNot(int t, Path dir) {
        if (runs < 1 || runs > MAX_RUNS) {
            return "--runs " + runs + " is not in 1.." + MAX_RUNS;
        }
        if (t < 1 || t > 256) {
            return "--threads " + t + " is not in 1..256";
        }
        return Lab.whyNotRunFolder(id, dir);
    }

    /** Every setting of the grid run on {@code t} threads, its progress on stderr as it ends; the rows in the grid's order. */
    private List<String> rows(Path scratch, int t) throws Exception {
        List<CoverageSim.Case> grid = CoverageSim.grid();
        System.err.printf("lab: coverage: %d settings x %d runs, seeds %d..%d, %d thread(s)%n", grid.size(), runs, seed, seed + grid.size() - 1,
                Math.min(t, grid.size()));
        AtomicInteger finished = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(t, grid.size()));
        try {
            List<Future<CoverageSim.Row>> futures = new ArrayList<>();
            for (int i = 0; i < grid.size(); i++) {
                CoverageSim.Case c = grid.get(i);
                long s = seed + i;
                Path own = scratch.resolve("setting-" + i);
                futures.add(pool.submit(() -> {
                    long t0 = System.nanoTime();
                    CoverageSim.Row r = c.row(runs, s, own);
                    System.err.printf("lab: coverage [%d/%d] %s: %s (%d runs, seed %d, %.0f s)%n", finished.incrementAndGet(), grid.size(),
                            c.name(), r.words(), runs, s, (System.nanoTime() - t0) / 1e9);
                    return r;
                }));
            }
            List<String> out = new ArrayList<>();
            for (Future<CoverageSim.Row> f : futures) {
                out.add(f.get().tsv());
            }
            return out;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        } finally {
            pool.shutdownNow();
        }
    }
}
