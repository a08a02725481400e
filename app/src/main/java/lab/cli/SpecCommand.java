package lab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lab.jobspec.FioOption;
import lab.jobspec.Job;
import lab.jobspec.JobFile;
import lab.jobspec.JobFileParser;
import lab.jobspec.JobRender;
import lab.jobspec.JobSpecException;
import lab.jobspec.Notice;
import lab.jobspec.OptionClass;
import lab.jobspec.OptionTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lab spec check JOBFILE}: parse a job file and print each job as the lab reads it;
 * {@code lab spec render EXAMPLE ...}: a job file derived from a fix's example ({@link JobRender},
 * as {@code bridge.jar spec render}); {@code lab spec keys}: every option of fio 3.33 and what the
 * lab does with it ({@link OptionTable}).
 */
@Command(name = "spec", mixinStandardHelpOptions = true,
        description = "Job files (fio's INI subset, shared by the engine and the bridge).",
        subcommands = {SpecCommand.Check.class, SpecCommand.Render.class, SpecCommand.Keys.class})
final class SpecCommand {

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Print a job file's jobs with fio's defaults applied.",
                    "Before them, one line per option set that has no effect here:",
                    "FILE:LINE: key 'KEY': accepted, no effect here (WHY).",
                    "A malformed file prints FILE:LINE: key 'KEY': problem, one line for",
                    "every refusal in the file, and exits 2."})
    static final class Check implements Callable<Integer> {
        @Parameters(paramLabel = "JOBFILE", description = "the job file")
        Path file;

        @Override
        public Integer call() {
            JobFile jf;
            try {
                jf = JobFileParser.parse(file);
            } catch (JobSpecException e) {
                for (JobSpecException r : e.refusals()) {
                    System.err.println("lab: " + r.own());
                }
                return Lab.EXIT_BAD_INPUT;
            }
            for (Notice n : jf.notices()) {
                System.out.println(n.message());
            }
            for (Job j : jf.jobs()) {
                System.out.println(j);
            }
            return 0;
        }
    }

    @Command(name = "render", mixinStandardHelpOptions = true,
            description = {"Print a job file derived from EXAMPLE, a fix's examples/*.fio.",
                    "--set overrides or adds a key in [global], --unset removes one (fio's default",
                    "then holds); either removes the key from every section, so it holds for every",
                    "job. --name renames the job section of an example with one. Comments are",
                    "dropped. The kernel scenarios make their job files this way (bridge.jar spec",
                    "render). A bad key or value prints FILE:LINE: key 'KEY': problem and exits 2."})
    static final class Render implements Callable<Integer> {
        @Parameters(paramLabel = "EXAMPLE", description = "the job file to start from")
        Path example;

        @Option(names = "--set", paramLabel = "KEY=VALUE",
                description = "override or add KEY (a flag may be bare: --set time_based); repeatable")
        List<String> sets = new ArrayList<>();

        @Option(names = "--unset", paramLabel = "KEY", description = "remove KEY; repeatable")
        List<String> unsets = new ArrayList<>();

        @Option(names = "--name", paramLabel = "SECTION", description = "rename the example's one job section")
        String name;

        @Override
        public Integer call() {
            try {
                System.out.print(JobRender.render(example, sets, unsets, name));
                System.out.flush();
                return 0;
            } catch (JobSpecException e) {
                System.err.println("lab: " + e.getMessage());
                return Lab.EXIT_BAD_INPUT;
            }
        }
    }

    @Command(name = "keys", mixinStandardHelpOptions = true,
            description = {"List every option of fio 3.33 and what the lab does with it.",
                    "Each is implemented, accepted with no effect here, or refused (with the",
                    "reason); by name within each class."})
    static final class Keys implements Callable<Integer> {
        @Override
        public Integer call() {
            for (OptionClass c : OptionClass.values()) {
                List<FioOption> options = OptionTable.of(c);
                System.out.println(heading(c, options.size()));
                options.forEach(o -> System.out.println("  " + o.describe()));
            }
            return 0;
        }

        /** {@code IMPLEMENTED (30 options): what the class means}. */
        static String heading(OptionClass c, int count) {
            return c + " (" + count + " options): " + c.meaning();
        }
    }
}
