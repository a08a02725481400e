package lab.bridge.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import lab.jobspec.JobRender;
import lab.jobspec.JobSpecException;

/**
 * {@code spec render EXAMPLE [--set KEY=VALUE]... [--unset KEY]... [--name SECTION]}: a job file
 * derived from a fix's example ({@link JobRender}) on standard output. The kernel scenarios make
 * their job files with it. Exit 2, nothing printed, on a malformed example or override.
 */
final class SpecRenderCommand {
    static final String USAGE = "spec render EXAMPLE [--set KEY=VALUE]... [--unset KEY]... [--name SECTION]";

    static final String HELP = """
            usage: %s
            Print a job file derived from EXAMPLE: --set overrides or adds a key in [global] (a
            flag may be given bare: --set time_based), --unset removes one (fio's default then
            holds); either removes the key from every section, so it holds for every job. --name
            renames the job section of an example with one. Comments are dropped. A bad key or
            value prints FILE:LINE: key 'KEY': problem and exits 2.
            """.formatted(USAGE);

    private SpecRenderCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        try {
            Args a = Args.parse(args, Set.of("--set", "--unset", "--name"), Set.of("--help", "-h"));
            if (a.has("--help") || a.has("-h")) {
                out.print(HELP);
                return 0;
            }
            if (a.positional.size() != 1) {
                throw new Args.UsageException(a.positional.isEmpty() ? "missing EXAMPLE"
                        : "one EXAMPLE, not " + a.positional.size() + ": " + a.positional);
            }
            out.print(JobRender.render(Path.of(a.positional.getFirst()), a.all("--set"), a.all("--unset"), a.one("--name")));
            out.flush();
            return 0;
        } catch (Args.UsageException e) {
            err.println("lab: spec render: " + e.getMessage() + " (usage: " + USAGE + ")");
            return BridgeMain.EXIT_BAD_INPUT;
        } catch (JobSpecException e) {
            err.println("lab: " + e.getMessage());
            return BridgeMain.EXIT_BAD_INPUT;
        }
    }
}
