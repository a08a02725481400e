package lab.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code lab} command line. The {@code ./lab} script finds the JDK, builds, and runs this
 * with {@code -Dlab.root} (the repository) and {@code -Dlab.state} (the lab's state folder).
 *
 * <p>Exit codes: 0 done; 1 a run failed; 2 bad input (a malformed job file, a bad option),
 * in which case nothing was written. A bad option or a missing file is one line on standard
 * error; an internal error is one line that names a log holding its stack trace
 * ({@link #internalError}), never a trace on the terminal.
 */
@Command(name = "lab", mixinStandardHelpOptions = true, version = "contention lab 0.1",
        description = {"The contention lab: lock and atomic contention in the Linux block I/O stack,",
                "modelled on the JVM and measured on real devices, five kernel fixes at a time."},
        footer = {"", "Exit codes: 0 done; 1 the run failed (an I/O error, a tool that failed);",
                "2 bad input or refused: one line on stderr says what, and nothing is made or",
                "written."},
        subcommands = {DemoCommand.class, TestCommand.class, KernelCommand.class, EngineCommand.class, BridgeCommand.class, BenchCommand.class,
                PairCommand.class, AmplifyCommand.class, NotebookCommand.class, CompareCommand.class, CoverageCommand.class, ProfileCommand.class, FleetCommand.class,
                FlamegraphCommand.class, SpecCommand.class, CommandLine.HelpCommand.class})
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
            ex.getCommandLine().getErr().println("lab: " + ex.getMessage() + " (see " + helpOf(ex.getCommandLine()) + ")");
            return EXIT_BAD_INPUT;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            if (ex instanceof java.nio.file.NoSuchFileException || ex instanceof java.nio.file.AccessDeniedException
                    || ex instanceof java.io.FileNotFoundException) {
                c.getErr().println("lab: cannot open " + ex.getMessage() + ": "
                        + (ex instanceof java.nio.file.AccessDeniedException ? "permission denied" : "no such file or directory"));
                return EXIT_BAD_INPUT;
            }
            if (ex instanceof java.nio.file.FileAlreadyExistsException e && e.getReason() != null) {
                c.getErr().println("lab: " + e.getFile() + ": " + e.getReason()); // a run id taken (RunFolder.start)
                return EXIT_BAD_INPUT;
            }
            c.getErr().println(internalError(ex));
            return EXIT_FAILED;
        });
        // ./lab kernel ARGS... hands ARGS to lab-kernel.sh as they are: --quick and the like are
        // its options, and after its command word even --help is
        cl.getSubcommands().get("kernel").setUnmatchedOptionsArePositionalParams(true).setStopAtPositional(true);
        return cl.execute(args);
    }

    /** {@code ./lab SUB --help} for the (sub)command that failed to parse. */
    private static String helpOf(CommandLine c) {
        StringBuilder name = new StringBuilder();
        for (CommandLine x = c; x != null; x = x.getParent()) {
            name.insert(0, x.getParent() == null ? "./lab" : " " + x.getCommandName());
        }
        return name + " --help";
    }

    /**
     * One line for an error the lab did not expect: its message and the path of a log, under the
     * lab's state folder ({@code -Dlab.state}, else the system's temporary folder), that holds
     * the stack trace.
     */
    static String internalError(Throwable ex) {
        String state = System.getProperty("lab.state");
        Path dir = state != null ? Path.of(state) : Path.of(System.getProperty("java.io.tmpdir"));
        Path log = dir.resolve("error-" + System.currentTimeMillis() + ".log");
        try {
            java.nio.file.Files.createDirectories(dir);
            java.io.StringWriter trace = new java.io.StringWriter();
            ex.printStackTrace(new java.io.PrintWriter(trace));
            java.nio.file.Files.writeString(log, commandLine + "\n" + trace);
            return "lab: internal error: " + ex + " (stack trace in " + log + ")";
        } catch (java.io.IOException | RuntimeException e) {
            return "lab: internal error: " + ex + " (no log: " + e.getMessage() + ")";
        }
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

    /** Why {@code --id} and {@code --results} cannot name a new run folder; null when they can. */
    static String whyNotRunFolder(String id, Path results) {
        if (id != null && (!id.matches("[A-Za-z0-9][A-Za-z0-9._-]*") || id.endsWith(".partial"))) {
            return "--id '" + id + "' is not a run id (letters, digits, '.', '_' and '-', a letter or digit first)";
        }
        if (java.nio.file.Files.exists(results) && !java.nio.file.Files.isDirectory(results)) {
            return "--results " + results + " is not a folder";
        }
        return null;
    }

    static Path root() {
        return Path.of(System.getProperty("lab.root", ".")).toAbsolutePath().normalize();
    }

    /** The lab's state folder ({@code -Dlab.state}, which {@code ./lab} passes; else {@code .lab} in the repository). */
    static Path state() {
        String state = System.getProperty("lab.state");
        return state != null ? Path.of(state).toAbsolutePath().normalize() : root().resolve(".lab");
    }

    /**
     * A list that {@code ./lab} passes from scripts/lib.sh, its one source, as {@code -DNAME="a b
     * c"} (lab.jars: the jars the build makes; lab.build.inputs: what it reads).
     */
    static List<String> listProperty(String name) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("-D" + name + " is not set: run this through ./lab, which passes it from scripts/lib.sh");
        }
        return List.of(v.trim().split("\\s+"));
    }

    private static String quote(String a) {
        return a.matches("[A-Za-z0-9_./=:,@%+-]+") ? a : "'" + a.replace("'", "'\\''") + "'";
    }
}
