package lab.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code lab} command line. The {@code ./lab} script finds the JDK, builds, and runs this
 * with {@code -Dlab.root} (the repository) and {@code -Dlab.state} (the lab's state folder).
 *
 * <p>Exit codes: 0 done; 1 a run failed; 2 bad input (a malformed job file, a bad option),
 * in which case nothing was written.
 */
@Command(name = "lab", mixinStandardHelpOptions = true, version = "contention lab 0.1",
        description = {"The contention lab: lock and atomic contention in the Linux block I/O stack,",
                "modelled on the JVM and measured on real devices, five kernel fixes at a time."},
        subcommands = {DemoCommand.class, TestCommand.class, KernelCommand.class, EngineCommand.class, BridgeCommand.class, BenchCommand.class,
                PairCommand.class, NotebookCommand.class, CompareCommand.class, FlamegraphCommand.class,
                SpecCommand.class, CommandLine.HelpCommand.class})
public final class Lab {
    /** Exit code for bad input: the message names what was wrong and nothing was written. */
    public static final int EXIT_BAD_INPUT = 2;
    public static final int EXIT_FAILED = 1;

    static String commandLine = "./lab";

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String... args) {
        commandLine = "./lab " + Arrays.stream(args).map(Lab::quote).collect(Collectors.joining(" "));
        CommandLine cl = new CommandLine(new Lab());
        cl.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("lab: " + ex.getMessage());
            ex.getCommandLine().usage(ex.getCommandLine().getErr());
            return EXIT_BAD_INPUT;
        });
        // ./lab kernel ARGS... hands ARGS to lab-kernel.sh as they are: --quick and the like are
        // its options, and after its command word even --help is
        cl.getSubcommands().get("kernel").setUnmatchedOptionsArePositionalParams(true).setStopAtPositional(true);
        return cl.execute(args);
    }

    /** The repository root (where results/ and examples/ live). */
    /** The build's tool versions (lab/versions.properties, filled by Maven), for manifest.json. */
    static java.util.Map<String, String> versions() {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        try (var in = Lab.class.getResourceAsStream("/lab/versions.properties")) {
            if (in != null) {
                java.util.Properties p = new java.util.Properties();
                p.load(in);
                for (String k : new java.util.TreeSet<>(p.stringPropertyNames())) {
                    out.put(k, p.getProperty(k));
                }
            }
        } catch (java.io.IOException e) {
            out.put("versions", "unreadable: " + e.getMessage());
        }
        return out;
    }

    static Path root() {
        return Path.of(System.getProperty("lab.root", ".")).toAbsolutePath().normalize();
    }

    private static String quote(String a) {
        return a.matches("[A-Za-z0-9_./=:,@%+-]+") ? a : "'" + a.replace("'", "'\\''") + "'";
    }
}
