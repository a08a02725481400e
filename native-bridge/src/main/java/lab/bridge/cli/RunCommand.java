package lab.bridge.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import lab.bridge.run.BridgeRun;
import lab.bridge.run.BridgeSetupException;
import lab.jobspec.JobFile;
import lab.jobspec.JobFileParser;
import lab.jobspec.JobSpecException;
import lab.jobspec.report.FioJob;
import lab.jobspec.report.FioReport;
import lab.jobspec.report.ReportOutput;

/**
 * {@code run JOBFILE [--filename DEV] [--output FILE] [--i-own-this-device]}: a job file through
 * io_uring, libaio, psync, sync or pvsync against a real block device or file, fio-style JSON on standard output or in
 * {@code --output}. What {@code ./lab bridge run} does (its picocli front calls
 * {@link #run(Path, String, Path, boolean, PrintStream, PrintStream, Supplier)}), and what the
 * kernel scripts run through {@code bridge.jar}.
 *
 * <p>Exit status: 0 done; 1 failed I/Os or verify mismatches (the JSON is still written); 2 a
 * malformed job file, a refused setup (target, size, alignment, ownership) or a bad command line,
 * with nothing written. Notes and messages go to standard error, each line starting {@code lab: }.
 */
public final class RunCommand {
    static final String USAGE = "run JOBFILE [--filename DEV] [--output FILE] [--i-own-this-device]";

    static final String HELP = """
            usage: %s
            Run a job file against a real block device or file and print fio-compatible JSON.
            Every check (target, size, O_DIRECT alignment, device ownership) runs before any I/O;
            a failed check or a malformed job file exits 2 and writes nothing.
            Failed I/Os or verify mismatches still write the JSON, and exit 1.
            A block device is written only if the lab made it (kernel-scripts' registry: the
            property lab.registry, else LAB_REGISTRY, else kernel/registry under lab.state or
            LAB_STATE) or with --i-own-this-device, and is held with O_EXCL for the whole run:
            one mounted, swapped on, stacked under dm/md or held by another program is refused
            even then. Notes go to standard error.
              --filename DEV         target of every job, instead of the job file's filename=
              --output FILE          write the JSON here instead of standard output
              --i-own-this-device    allow writes to a block device the lab did not make: its
                                     contents may be destroyed
            """.formatted(USAGE);

    /** What a front puts around the I/O itself (a profiler): opened once the job file is read. */
    @FunctionalInterface
    public interface Around extends AutoCloseable {
        @Override
        void close();
    }

    private RunCommand() {
    }

    /** Parses {@code args} (after {@code run}) and runs; returns the exit status. */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        Args a;
        try {
            a = Args.parse(args, Set.of("--filename", "--output"), Set.of("--i-own-this-device", "--help", "-h"));
            if (a.has("--help") || a.has("-h")) {
                out.print(HELP);
                return 0;
            }
            if (a.positional.size() != 1) {
                throw new Args.UsageException(a.positional.isEmpty() ? "missing JOBFILE"
                        : "one JOBFILE, not " + a.positional.size() + ": " + a.positional);
            }
            String output = a.one("--output");
            return run(Path.of(a.positional.getFirst()), a.one("--filename"), output == null ? null : Path.of(output),
                    a.has("--i-own-this-device"), out, err, () -> () -> { });
        } catch (Args.UsageException e) {
            err.println("lab: bridge run: " + e.getMessage() + " (usage: " + USAGE + ")");
            return BridgeMain.EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("lab: bridge run: " + e);
            return BridgeMain.EXIT_FAILED;
        }
    }

    /**
     * Runs {@code jobFile}; the report goes to {@code out} or {@code output}.
     *
     * @param around opened after the job file is read, closed after the last I/O (before the report)
     * @throws IOException the report could not be written
     */
    public static int run(Path jobFile, String filename, Path output, boolean iOwnThisDevice,
                          PrintStream out, PrintStream err, Supplier<Around> around) throws IOException {
        FioReport report;
        try {
            JobFile jobs = JobFileParser.parse(jobFile);
            try (Around a = around.get()) {
                report = BridgeRun.run(jobs, filename, iOwnThisDevice, err);
            }
        } catch (JobSpecException | BridgeSetupException e) {
            err.println("lab: " + e.getMessage());
            return BridgeMain.EXIT_BAD_INPUT;
        }
        ReportOutput.emit(report, output, out, err);
        return failures(report, err) == 0 ? 0 : BridgeMain.EXIT_FAILED;
    }

    /** Names every entry with failed I/Os or verify mismatches on {@code err}; returns how many. */
    static int failures(FioReport report, PrintStream err) {
        int n = 0;
        for (FioJob j : report.jobs()) {
            long errs = j.lab() == null ? 0 : j.lab().errors();
            Long bad = j.lab() == null ? null : j.lab().verifyMismatches();
            if (j.error() != 0 || errs > 0) {
                err.printf("lab: job %s: %d I/O(s) failed, the first with errno %d; its figures stop there%n",
                        j.jobname(), errs, j.error());
            }
            if (bad != null && bad > 0) {
                err.printf("lab: job %s: %d block(s) failed verification (see the notes above)%n",
                        j.jobname(), bad);
            }
            if (j.error() != 0 || errs > 0 || (bad != null && bad > 0)) {
                n++;
            }
        }
        return n;
    }
}
