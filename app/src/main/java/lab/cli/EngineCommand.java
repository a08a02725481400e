package lab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import lab.engine.blkcg.CssForward;
import lab.engine.load.DeviceKind;
import lab.engine.load.StackSpec;
import lab.engine.load.Workload;
import lab.jobspec.Inject;
import lab.jobspec.JobFile;
import lab.jobspec.JobFileParser;
import lab.jobspec.JobSpecException;
import lab.jobspec.report.FioJob;
import lab.jobspec.report.FioReport;
import lab.jobspec.report.ReportOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lab engine run}: a job file through the JVM model of the block stack. */
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = "The JVM engine: the kernel's block stack modelled on the JVM.",
        subcommands = EngineCommand.Run.class)
final class EngineCommand {

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = {"Run a job file through the JVM engine and print fio-compatible JSON.",
                    "ioengine is ignored (noted once); notes go to standard error.",
                    "A malformed job file exits 2 and writes nothing."})
    static final class Run implements Callable<Integer> {
        @Parameters(paramLabel = "JOBFILE", description = "the job file (fio INI subset)")
        Path file;

        @Option(names = "--device", defaultValue = "null", paramLabel = "null|ram",
                description = "engine device: null (null_blk) or ram (brd); default: ${DEFAULT-VALUE}")
        String device;

        @Option(names = "--dm-linear", defaultValue = "0", paramLabel = "N",
                description = "stack N nested dm-linear devices over the engine device (the dm-css-ref seed's 5); default: ${DEFAULT-VALUE}")
        int dmLinear;

        @Option(names = "--css", defaultValue = "percpu", paramLabel = "none|atomic|atomic-cmpxchg|percpu",
                description = "how bios and their dm clones hold their cgroup (the dm-css-ref switch); default: ${DEFAULT-VALUE} (today)")
        String css;

        @Option(names = "--inject", paramLabel = "STAGE:KIND[:COUNT],...",
                description = {"contention points on every bio's path, instead of the job file's inject key:",
                        "stages submit, clone, map, complete, end_io (clone, map, end_io need --dm-linear);",
                        "kinds atomic, cmpxchg, mutex, rwsem-read, percpu; e.g. clone:cmpxchg,end_io:cmpxchg"})
        String inject;

        @Option(names = "--output", paramLabel = "FILE", description = "write the JSON here instead of standard output")
        Path output;

        @Option(names = "--flamegraph", paramLabel = "FILE.html",
                description = "write an async-profiler CPU flamegraph of the run here")
        Path flamegraph;

        /** {@code --inject}'s value, with the option named in the message. */
        private static java.util.List<Inject> injectOption(String value) {
            try {
                return Inject.parse(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--inject: " + e.getMessage(), e);
            }
        }

        @Override
        public Integer call() throws IOException {
            DeviceKind kind;
            JobFile jobs;
            StackSpec stack;
            try {
                kind = DeviceKind.parse(device);
                stack = new StackSpec(dmLinear, CssForward.of(css), inject == null ? null : injectOption(inject));
                jobs = JobFileParser.parse(file);
                stack.injections(jobs.jobs()); // refused here, before anything runs or is written
                Workload.checkRunnable(jobs.jobs());
            } catch (IllegalArgumentException | JobSpecException e) {
                System.err.println("lab: " + e.getMessage());
                return Lab.EXIT_BAD_INPUT;
            }
            FioReport report;
            try (Flamegraph fg = Flamegraph.start(flamegraph, System.err)) {
                report = Workload.run(jobs, kind, stack, System.err);
            }
            emit(report, output);
            return failures(report) == 0 ? 0 : Lab.EXIT_FAILED;
        }
    }

    /** Names every job that ended with an I/O error (fio's {@code error}); returns how many. */
    static int failures(FioReport report) {
        int n = 0;
        for (FioJob j : report.jobs()) {
            if (j.error() != 0) {
                long errs = j.lab() == null ? 0 : j.lab().errors();
                System.err.printf("lab: job %s ended with error %d (errno) after %d failed I/O(s); its figures stop there%n",
                        j.jobname(), j.error(), errs);
                n++;
            }
        }
        return n;
    }

    /** The report to standard output, or atomically to {@code output} when given. */
    static void emit(FioReport report, Path output) throws IOException {
        ReportOutput.emit(report, output, System.out, System.err);
    }
}
