package lab.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import lab.jobspec.Job;
import lab.jobspec.JobFile;
import lab.jobspec.JobFileParser;
import lab.jobspec.JobSpecException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code lab spec check JOBFILE}: parse a job file and print each job as the lab reads it. */
@Command(name = "spec", mixinStandardHelpOptions = true,
        description = "Job files (fio's INI subset, shared by the engine and the bridge).",
        subcommands = SpecCommand.Check.class)
final class SpecCommand {

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Parse a job file and print its jobs with fio's defaults applied.",
                    "A malformed file prints FILE:LINE: key 'KEY': problem and exits 2."})
    static final class Check implements Callable<Integer> {
        @Parameters(paramLabel = "JOBFILE", description = "the job file")
        Path file;

        @Override
        public Integer call() {
            JobFile jf;
            try {
                jf = JobFileParser.parse(file);
            } catch (JobSpecException e) {
                System.err.println("lab: " + e.getMessage());
                return Lab.EXIT_BAD_INPUT;
            }
            for (Job j : jf.jobs()) {
                System.out.println(j);
            }
            return 0;
        }
    }
}
