package lab.cli;

import lab.fix.Fixes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import lab.notebook.Notebook;
import lab.results.Manifest;
import lab.results.RunFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lab compare RUN_A RUN_B...}: one notebook lining up runs from different machines or kernels. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Line up two or more run folders in one notebook.",
                "E.g. the same pair on a 2-core VM and a 16-core host, or two kernels: copies",
                "each run's manifest.json and summary.json into raw/compare/ of a new",
                "results/compare-<UTC time>/ and writes its notebook from them."})
final class CompareCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN", arity = "2..*", description = "run folders with summary.json")
    List<Path> runs;

    @Option(names = "--results", paramLabel = "DIR", description = "results folder (default: results/ in the lab)")
    Path results;

    @Option(names = "--id", paramLabel = "RUN-ID", description = "run id (default: compare-<UTC time>)")
    String id;

    @Override
    public Integer call() throws Exception {
        for (Path r : runs) {
            if (!Files.isRegularFile(r.resolve("summary.json"))) {
                System.err.println("lab: " + r + ": no summary.json (run ./lab notebook " + r + " first?)");
                return Lab.EXIT_BAD_INPUT;
            }
        }
        RunFolder run = RunFolder.start(results == null ? Lab.root().resolve("results") : results,
                id == null ? RunFolder.newId("compare") : id);
        try {
            Path raw = run.raw().resolve("compare");
            Files.createDirectories(raw);
            int i = 0;
            for (Path r : runs) {
                String name = String.format("%02d-%s", ++i, r.toAbsolutePath().normalize().getFileName());
                Files.copy(r.resolve("summary.json"), raw.resolve(name + ".summary.json"));
            }
            Map<String, Object> m = Manifest.describe(Lab.root(), Lab.commandLine, "compare");
            m.put("run_id", run.finalDir().getFileName().toString());
            run.writeJson("manifest.json", m);
            Fixes.notebook(run.dir());
            Path done = run.commit();
            System.err.println("lab: wrote " + done.resolve("NOTEBOOK.md"));
            System.out.println(done);
            return 0;
        } catch (Exception e) {
            run.abandon();
            throw e;
        }
    }
}
