package lab.engine.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/*
 * JMH runs listed in a file, one after another in this JVM (forks 0), each
 * into OUT/NAME.json. Where a JVM start is dear (under TCG one takes about
 * 25 s, kernel/refscale.sh's JVM boot measured), one JVM runs a whole round
 * of a sweep: the app's AmplifiedModel writes the file, the guest
 * (kernel/jmh-guest.sh) runs it. The file names no path, so it runs the same
 * on the host. Where it simplifies: the harness shares the JVM with the
 * benchmark (JMH's -f 0 warning applies), and the runs of one file share
 * its JIT's profile.
 *
 * File: a run a line, "NAME ARG...", ARG being JMH's own command line
 * (the benchmark's regex, -t, -wi, -w, -i, -r, ...) but for parameters:
 * "-P name=value", a value a flag, repeated for more, in the order the run
 * takes them. JMH's own -p splits its values on commas, and a value may hold
 * one (dm-css-ref's inject=clone:atomic:1,end_io:atomic:1): -p is refused.
 * Blank lines and # comments skipped. NAME: letters, digits, '.', '_', '-'.
 * -f, -rf and -rff are this class's: a line that sets them is refused.
 *
 * --cpus-after-first LIST: after the file's first run, widen this JVM's
 * every thread to CPUs LIST (taskset -a -p -c LIST PID; util-linux's or
 * busybox's) and check /proc/self/status says so. The guest starts the JVM
 * on one vCPU (taskset -c 0) and the file's first run is a warm-up not read:
 * under multi-threaded TCG a JVM crashed in its first compiled code, 2-3 s
 * after its start (SIGSEGV at a C1 method's first instruction), in 6 of 22
 * starts on 2 vCPUs (measured: kernel/jmh.sh's JVMs of the committed run
 * pair-lab-kernel-amp-2core-20261204, crashes/ keeps their headers), as
 * another vCPU ran the code the JIT had just written; started on one vCPU
 * and widened after the warm-up, 0 of 8 (measured, Debian's guest kernel).
 *
 * Usage: JmhBatch FILE OUT [--cpus-after-first LIST]
 */

/** JMH runs listed in a file, in this JVM, each into its own JSON. */
public final class JmhBatch {
    private JmhBatch() {}

    /** One run of the file: its name (the JSON's) and its JMH options, at {@code line}. */
    public record Run(int line, String name, Options options) {}

    /** A line of the file JMH or this class cannot take: which, and why. */
    public static final class Malformed extends Exception {
        public Malformed(Path file, int line, String why) {
            super(file + ":" + line + ": " + why);
        }
    }

    public static void main(String[] args) throws IOException, RunnerException, InterruptedException {
        boolean widen = args.length == 4 && args[2].equals("--cpus-after-first") && args[3].matches("[0-9][0-9,-]*");
        if (args.length != 2 && !widen) {
            System.err.println("usage: JmhBatch FILE OUT [--cpus-after-first LIST]");
            System.exit(2);
        }
        List<Run> runs;
        try {
            runs = read(Path.of(args[0]), Path.of(args[1]));
        } catch (Malformed e) {
            System.err.println("JmhBatch: " + e.getMessage());
            System.exit(2);
            return;
        }
        Files.createDirectories(Path.of(args[1]));
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            System.err.println("JmhBatch: " + r.name() + " (line " + r.line() + ") on CPUs " + cpusAllowed());
            new Runner(r.options()).run();
            String why = i == 0 && widen ? widen(args[3]) : null;
            if (why != null) {
                System.err.println("JmhBatch: " + why);
                System.exit(1);
            }
        }
    }

    /** This JVM's every thread onto CPUs {@code list} (taskset), checked in /proc/self/status; why not where it did not take, else null. */
    static String widen(String list) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", list, Long.toString(ProcessHandle.current().pid()))
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes()).strip();
        String now = cpusAllowed();
        if (p.waitFor() != 0 || !now.equals(list)) {
            return "taskset -a -p -c " + list + " left this JVM on CPUs " + now + ": " + said;
        }
        return null;
    }

    /** Cpus_allowed_list of /proc/self/status (the calling thread's), "?" where there is none. */
    static String cpusAllowed() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return "?";
        }
        return Files.readAllLines(status).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("?");
    }

    /** The runs of {@code file}, each writing {@code out/NAME.json}; a line it cannot take is refused, naming it. */
    public static List<Run> read(Path file, Path out) throws IOException, Malformed {
        List<Run> runs = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] w = l.split("\\s+");
            if (!w[0].matches("[A-Za-z0-9._-]+")) {
                throw new Malformed(file, i + 1, "'" + w[0] + "' is not a run's name (letters, digits, '.', '_', '-')");
            }
            if (runs.stream().anyMatch(r -> r.name().equals(w[0]))) {
                throw new Malformed(file, i + 1, "a second run named '" + w[0] + "'");
            }
            List<String> jmh = new ArrayList<>();
            Map<String, List<String>> params = new LinkedHashMap<>();
            for (int k = 1; k < w.length; k++) {
                String a = w[k];
                if (a.equals("-f") || a.equals("-rf") || a.equals("-rff")) {
                    throw new Malformed(file, i + 1, a + " is JmhBatch's to set (forks 0, JSON into OUT/NAME.json)");
                }
                if (a.equals("-p")) {
                    throw new Malformed(file, i + 1, "-p splits its values on commas: give each value as -P name=value");
                }
                if (a.equals("-P")) {
                    int eq = k + 1 < w.length ? w[k + 1].indexOf('=') : -1;
                    if (eq < 1) {
                        throw new Malformed(file, i + 1, "-P needs name=value");
                    }
                    params.computeIfAbsent(w[k + 1].substring(0, eq), x -> new ArrayList<>()).add(w[k + 1].substring(eq + 1));
                    k++;
                } else {
                    jmh.add(a);
                }
            }
            CommandLineOptions cl;
            try {
                cl = new CommandLineOptions(jmh.toArray(String[]::new));
            } catch (CommandLineOptionException e) {
                throw new Malformed(file, i + 1, "JMH: " + e.getMessage());
            }
            if (cl.getIncludes().isEmpty()) {
                throw new Malformed(file, i + 1, "no benchmark named");
            }
            ChainedOptionsBuilder o = new OptionsBuilder().parent(cl).forks(0).resultFormat(ResultFormatType.JSON)
                    .result(out.resolve(w[0] + ".json").toString());
            params.forEach((k, v) -> o.param(k, v.toArray(String[]::new)));
            runs.add(new Run(i + 1, w[0], o.build()));
        }
        if (runs.isEmpty()) {
            throw new Malformed(file, lines.size(), "no run in the file");
        }
        return runs;
    }
}
