package lab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import lab.bridge.cli.RunCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lab bridge run}: a job file through io_uring, libaio or a synchronous engine (psync, sync, pvsync) against a real block device or file.
 * A picocli front for {@link RunCommand}, which {@code native-bridge/target/bridge.jar run} runs
 * too; only {@code --flamegraph} (async-profiler, app's) is this front's own.
 */
@Command(name = "bridge", mixinStandardHelpOptions = true,
        description = {"The native bridge: the engine's job files, on real devices.",
                "It runs them through io_uring, libaio, psync, sync or pvsync."},
        subcommands = BridgeCommand.Run.class)
final class BridgeCommand {

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = {"Run a job file on a real block device or file; print fio-compatible JSON.",
                    "Every check (target, size, O_DIRECT alignment, device ownership) runs before",
                    "any I/O; a failed check or a malformed job file exits 2 and writes nothing.",
                    "Failed I/Os or verify mismatches still write the JSON, and exit 1.",
                    "A block device is written only if the lab made it (kernel-scripts' registry",
                    "under LAB_STATE) or with --i-own-this-device, and is held with O_EXCL for the",
                    "whole run: one mounted, swapped on, stacked under dm/md or held by another",
                    "program is refused even then. Notes go to standard error."})
    static final class Run implements Callable<Integer> {
        @Parameters(paramLabel = "JOBFILE", description = "the job file (fio INI subset)")
        Path file;

        @Option(names = "--filename", paramLabel = "DEV",
                description = "target of every job, instead of the job file's filename=")
        String filename;

        @Option(names = "--output", paramLabel = "FILE", description = "write the JSON here instead of standard output")
        Path output;

        @Option(names = "--i-own-this-device",
                description = "allow writes to a block device the lab did not make: its contents may be destroyed")
        boolean iOwnThisDevice;

        @Option(names = "--flamegraph", paramLabel = "FILE.html",
                description = "write an async-profiler CPU flamegraph of the run here")
        Path flamegraph;

        @Override
        public Integer call() throws IOException {
            return RunCommand.run(file, filename, output, iOwnThisDevice, System.out, System.err, () -> {
                Flamegraph fg = Flamegraph.start(flamegraph, System.err);
                return fg::close;
            });
        }
    }
}
