package lab.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import lab.analysis.MalformedResultException;
import lab.analysis.flame.FlameGraphSvg;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lab flamegraph IN.collapsed OUT.svg}: collapsed stacks to a standalone SVG flamegraph. */
@Command(name = "flamegraph", mixinStandardHelpOptions = true,
        description = {"Render collapsed stacks to a standalone SVG flamegraph.",
                "IN.collapsed: \"frame;frame;leaf COUNT\" per line, as from kernel-scripts'",
                "perf record or async-profiler.",
                "A malformed file is named with its line and exits 2; nothing is written."})
final class FlamegraphCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "IN.collapsed")
    Path in;

    @Parameters(index = "1", paramLabel = "OUT.svg")
    Path out;

    @Option(names = "--title", description = "title at the top (default: the input's file name)")
    String title;

    @Override
    public Integer call() throws Exception {
        try {
            long n = FlameGraphSvg.render(in, out, title == null ? in.getFileName().toString() : title);
            System.err.println("lab: " + out + ": " + n + " samples");
            return 0;
        } catch (MalformedResultException e) {
            System.err.println("lab: " + e.getMessage());
            return Lab.EXIT_BAD_INPUT;
        }
    }
}
