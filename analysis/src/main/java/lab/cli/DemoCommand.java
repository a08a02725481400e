package lab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import lab.analysis.EngineReport;
import lab.analysis.PrimitivesReport;
import lab.engine.load.DeviceKind;
import lab.engine.load.Workload;
import lab.jobspec.JobFile;
import lab.jobspec.JobFileParser;
import lab.jobspec.report.FioReport;
import lab.results.Manifest;
import lab.results.RunFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lab demo}: the main job, in about a minute. A quick JMH run of the sync primitives at
 * 1..cores threads, and the sample job through the engine on each device, into one result folder.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"The main job: a quick primitives benchmark across 1..cores threads and",
                "examples/sample.fio through the JVM engine (null and ram devices), written to",
                "results/demo-<UTC time>/ with manifest.json, raw/, summary.json and NOTEBOOK.md."})
final class DemoCommand implements Callable<Integer> {
    static final String SAMPLE = "examples/sample.fio";

    @Option(names = "--results", paramLabel = "DIR", description = "results folder (default: results/ in the lab)")
    Path results;

    @Override
    public Integer call() throws Exception {
        Path root = Lab.root();
        JobFile sample = JobFileParser.parse(root.resolve(SAMPLE));
        RunFolder run = RunFolder.start(results == null ? root.resolve("results") : results, RunFolder.newId("demo"));
        try {
            run.writeJson("manifest.json", Manifest.describe(root, Lab.commandLine, "jvm"));
            PrimitivesBench.run(run.raw(), PrimitivesBench.defaultThreads(), 1, PrimitivesBench.Profile.QUICK, System.err);
            List<Path> engineRuns = new ArrayList<>();
            for (DeviceKind kind : DeviceKind.values()) {
                System.err.printf("lab: %s through the engine on %s%n", SAMPLE, kind.cliName());
                FioReport report = Workload.run(sample, kind, System.err);
                Path out = run.raw().resolve("engine-sample-" + kind.cliName() + ".json");
                EngineCommand.writeAtomically(report, out);
                if (EngineCommand.failures(report) > 0) {
                    throw new IllegalStateException("the sample job failed on the engine's " + kind.cliName() + " device");
                }
                engineRuns.add(out);
            }
            PrimitivesReport prims = PrimitivesReport.read(run.raw());
            EngineReport engine = EngineReport.read(engineRuns);
            run.writeJson("summary.json", Map.of("primitives", prims.summary(), "engine", engine.summary()));
            String notebook = "# Demo: sync primitives and the sample job\n\n"
                    + "A quick run (" + PrimitivesBench.Profile.QUICK.describe() + ", one round): shapes, not "
                    + "figures to quote; `./lab bench primitives` makes the full run. Machine: see manifest.json.\n\n"
                    + prims.markdown("./lab bench primitives --quick --rounds 1") + "\n"
                    + engine.markdown(d -> "./lab engine run " + SAMPLE + " --device " + d);
            run.writeText("NOTEBOOK.md", notebook);
            Path done = run.commit();
            System.out.println(notebook);
            System.out.println("lab: wrote " + root.relativize(done.toAbsolutePath()));
            return 0;
        } catch (Exception e) {
            run.abandon();
            throw e;
        }
    }
}
