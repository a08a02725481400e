package lab.cli;

import lab.fix.primitives.PrimitivesBench;
import lab.fix.Rounds;
import lab.fix.Fixes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import lab.analysis.BridgeVsFioReport;
import lab.analysis.MalformedResultException;
import lab.fix.primitives.PrimitivesReport;
import lab.notebook.Notebook;
import lab.results.Manifest;
import lab.results.RunFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lab bench ...}: the engine's JMH benchmarks, each run writing a result folder. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "JMH benchmarks of the JVM engine; a run writes results/<run-id>/.",
        subcommands = {BenchCommand.Primitives.class, BenchCommand.Report.class})
final class BenchCommand {

    @Command(name = "primitives", mixinStandardHelpOptions = true,
            description = {"Time each sync primitive's get+put pair, refscale-style.",
                    "In ns per pair per thread, for shared atomic, percpu_ref, SRCU, rwsem, mutex,",
                    "percpu_counter, padded and unpadded per-thread slots, at 1..N threads,",
                    "in interleaved rounds."})
    static final class Primitives implements Callable<Integer> {
        @Option(names = "--threads", split = ",", paramLabel = "N[,N...]",
                description = "thread counts (default: 1..cores; more than cores is allowed)")
        List<Integer> threads;

        @Option(names = "--rounds", defaultValue = "3", description = "rounds interleaving the thread counts (default: ${DEFAULT-VALUE})")
        int rounds;

        @Option(names = "--quick", description = "short iterations (the demo's setting)")
        boolean quick;

        @Option(names = "--results", paramLabel = "DIR", description = "results folder (default: results/ in the lab)")
        Path results;

        @Option(names = "--id", paramLabel = "RUN-ID", description = "run id (default: primitives-<UTC time>)")
        String id;

        @Override
        public Integer call() throws Exception {
            List<Integer> t = threads == null ? Rounds.defaultThreads() : threads;
            if (rounds < 1 || t.isEmpty() || t.stream().anyMatch(n -> n < 1 || n > 64)) {
                System.err.println("lab: --rounds must be >= 1 and --threads values in 1..64");
                return Lab.EXIT_BAD_INPUT;
            }
            if (!t.contains(1)) {
                System.err.println("lab: --threads must include 1: scaling is measured against one thread");
                return Lab.EXIT_BAD_INPUT;
            }
            Path dir = results == null ? Lab.root().resolve("results") : results;
            RunFolder run = RunFolder.start(dir, id == null ? RunFolder.newId("primitives") : id);
            try {
                Map<String, Object> manifest = Manifest.describe(Lab.root(), Lab.commandLine, "jvm");
                manifest.put("run_id", run.finalDir().getFileName().toString());
                run.writeJson("manifest.json", manifest);
                var profile = quick ? PrimitivesBench.Profile.QUICK : PrimitivesBench.Profile.FULL;
                PrimitivesBench.run(run.raw(), t, rounds, profile, System.err);
                PrimitivesReport report = PrimitivesReport.read(run.raw());
                Fixes.notebook(run.dir());
                Path done = run.commit();
                System.out.println(report.markdown(Lab.commandLine));
                System.out.println("lab: wrote " + done);
                return 0;
            } catch (Exception e) {
                run.abandon();
                throw e;
            }
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true,
            description = {"Write a benchmark run folder's notebook from its raw/ files.",
                    "Writes manifest.json first if it is missing, then the notebook as",
                    "./lab notebook does. Used by native-bridge/bench/bridge-vs-fio.sh."})
    static final class Report implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "KIND", description = "bridge-vs-fio")
        String kind;

        @Parameters(index = "1", paramLabel = "RUN-DIR", description = "the run folder (holding raw/)")
        Path dir;

        @Option(names = "--command", required = true, description = "the command that made the run")
        String command;

        @Override
        public Integer call() throws Exception {
            if (!"bridge-vs-fio".equals(kind)) {
                System.err.println("lab: unknown report kind '" + kind + "' (bridge-vs-fio)");
                return Lab.EXIT_BAD_INPUT;
            }
            try {
                BridgeVsFioReport.read(dir.resolve("raw"));
            } catch (MalformedResultException e) {
                System.err.println("lab: " + e.getMessage());
                return Lab.EXIT_BAD_INPUT;
            }
            if (!Files.exists(dir.resolve("manifest.json"))) { // regenerating keeps the run's own manifest
                Map<String, Object> m = Manifest.describe(Lab.root(), command, "native");
                m.put("run_id", runId(dir));
                new com.fasterxml.jackson.databind.ObjectMapper().enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                        .writeValue(dir.resolve("manifest.json").toFile(), m);
            }
            Notebook.Written w = Fixes.notebook(dir);
            System.out.println(Files.readString(w.notebook()));
            return 0;
        }
    }

    /**
     * The id of the run in {@code dir}: its name, less the {@code .ID.partial} wrapping the
     * benchmark scripts write under until the run is complete ({@code zram-bench.sh run_start}).
     */
    static String runId(Path dir) {
        String name = dir.toAbsolutePath().normalize().getFileName().toString();
        return name.startsWith(".") && name.endsWith(".partial") && name.length() > ".partial".length() + 1
                ? name.substring(1, name.length() - ".partial".length())
                : name;
    }
}
