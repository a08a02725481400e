package lab.bridge.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * {@code java -jar native-bridge/target/bridge.jar}: the bridge on its own, for the kernel scripts
 * (which run it straight on the JDK, so that perf stat counts the bridge and nothing of the lab's
 * launcher). Two subcommands: {@code run} ({@link RunCommand}, what {@code ./lab bridge run} does)
 * and {@code spec render} ({@link SpecRenderCommand}, what {@code ./lab spec render} does).
 */
public final class BridgeMain {
    static final int EXIT_FAILED = 1;
    /** A bad command line, a malformed job file or a refused setup: nothing was written. */
    static final int EXIT_BAD_INPUT = 2;

    private static final String USAGE = """
            usage: java --enable-native-access=ALL-UNNAMED -jar bridge.jar COMMAND ...
              %s
              %s
            Each command takes --help.
            """.formatted(RunCommand.USAGE, SpecRenderCommand.USAGE);

    private BridgeMain() {
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        String cmd = args.isEmpty() ? "" : args.getFirst();
        switch (cmd) {
            case "run":
                return RunCommand.run(args.subList(1, args.size()), out, err);
            case "spec":
                if (args.size() >= 2 && args.get(1).equals("render")) {
                    return SpecRenderCommand.run(args.subList(2, args.size()), out, err);
                }
                err.println("lab: spec: the bridge has one spec command, render (usage: " + SpecRenderCommand.USAGE + ")");
                return EXIT_BAD_INPUT;
            case "--help", "-h", "help":
                out.print(USAGE);
                return 0;
            default:
                err.println("lab: " + (cmd.isEmpty() ? "no command" : "unknown command '" + cmd + "'")
                        + " (commands: run, spec render; --help)");
                return EXIT_BAD_INPUT;
        }
    }
}
