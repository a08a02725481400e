package lab.bridge.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.jobspec.JobRender;
import lab.jobspec.JobSpecException;

/**
 * {@code spec render EXAMPLE [--set KEY=VALUE]... [--unset KEY]... [--name SECTION]}: a job file
 * derived from a fix's example ({@link JobRender}) on standard output. The kernel scenarios make
 * their job files with it. Exit 2, nothing printed, on a malformed example or override.
 * {@code spec render --batch LIST}: many job files from one JVM (its start takes seconds under
 * the guest's TCG, where a scenario renders a file per cell): each line of LIST is OUTPUT, EXAMPLE
 * and the render's arguments, separated by tabs; every file is rendered before any is written, so
 * a bad line writes none.
 */
final class SpecRenderCommand {
    static final String USAGE = "spec render EXAMPLE [--set KEY=VALUE]... [--unset KEY]... [--name SECTION] | --batch LIST";

    static final String HELP = """
            usage: %s
            Print a job file derived from EXAMPLE: --set overrides or adds a key in [global] (a
            flag may be given bare: --set time_based), --unset removes one (fio's default then
            holds); either removes the key from every section, so it holds for every job. --name
            renames the job section of an example with one. Comments are dropped. A bad key or
            value prints FILE:LINE: key 'KEY': problem and exits 2.
            --batch LIST renders many files in one go: each line of LIST is
            OUTPUT<TAB>EXAMPLE[<TAB>ARG]... (ARGs as above, one to a field); nothing is
            written unless every line renders, and a bad one prints LIST:LINE: and why.
            """.formatted(USAGE);

    private SpecRenderCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        try {
            Args a = Args.parse(args, Set.of("--set", "--unset", "--name", "--batch"), Set.of("--help", "-h"));
            if (a.has("--help") || a.has("-h")) {
                out.print(HELP);
                return 0;
            }
            if (a.has("--batch")) {
                if (!a.positional.isEmpty() || a.has("--set") || a.has("--unset") || a.has("--name")) {
                    throw new Args.UsageException("--batch takes its files and arguments from LIST alone");
                }
                return batch(Path.of(a.one("--batch")), err);
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

    /** {@code --batch LIST}: every line rendered, then every file written; exit 2 and none written on a bad line. */
    private static int batch(Path list, PrintStream err) {
        List<String> lines;
        try {
            lines = Files.readAllLines(list, StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("lab: spec render: cannot read " + list + ": " + e.getMessage());
            return BridgeMain.EXIT_BAD_INPUT;
        }
        Map<Path, String> files = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String where = list + ":" + (i + 1) + ": ";
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> f = List.of(lines.get(i).split("\t", -1));
            try {
                if (f.size() < 2 || f.get(0).isEmpty() || f.get(1).isEmpty()) {
                    throw new Args.UsageException("OUTPUT<TAB>EXAMPLE[<TAB>ARG]... expected");
                }
                Args a = Args.parse(f.subList(1, f.size()), Set.of("--set", "--unset", "--name"), Set.of());
                if (a.positional.size() != 1) {
                    throw new Args.UsageException("one EXAMPLE, not " + a.positional);
                }
                if (files.put(Path.of(f.get(0)), JobRender.render(Path.of(a.positional.getFirst()), a.all("--set"),
                        a.all("--unset"), a.one("--name"))) != null) {
                    throw new Args.UsageException(f.get(0) + " is named twice");
                }
            } catch (Args.UsageException | JobSpecException e) {
                err.println("lab: spec render: " + where + e.getMessage());
                return BridgeMain.EXIT_BAD_INPUT;
            }
        }
        for (Map.Entry<Path, String> e : files.entrySet()) {
            try {
                Files.writeString(e.getKey(), e.getValue(), StandardCharsets.UTF_8);
            } catch (IOException x) {
                err.println("lab: spec render: cannot write " + e.getKey() + ": " + x.getMessage());
                return 1;
            }
        }
        return 0;
    }
}
