package lab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs a kernel-scripts scenario for {@code pair}: {@code kernel-scripts/lab-kernel.sh run
 * SCENARIO [--quick]} with {@code LAB_OUT} naming the fix's {@code raw/<fix>/kernel/}. Real
 * devices need root; without it (or without the script) the step is skipped with the reason,
 * never faked. The scenario's own log goes to {@code kernel/scenario.log}. Afterwards each kernel
 * flamegraph it recorded ({@code *.kernel.collapsed.gz}) gets its SVG ({@link KernelFlamegraphs}).
 */
final class KernelScenario {
    private KernelScenario() {}

    /** Why the kernel side cannot run here, or null when it can. */
    static String whyNot(Path labRoot) {
        if (!Files.isExecutable(labRoot.resolve("kernel-scripts/lab-kernel.sh"))) {
            return "kernel-scripts/lab-kernel.sh is missing";
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return "needs root to make real devices (run: sudo ./lab pair ...)";
        }
        if (System.getenv("LAB_NO_KERNEL") != null) {
            return "LAB_NO_KERNEL is set";
        }
        return null;
    }

    /**
     * What kernel-scripts read from the environment: {@code LAB_ROOT}; {@code LAB_STATE} (the
     * property {@code lab.state}, which {@code ./lab} passes); {@code LAB_JDK} (which runs
     * {@code bridge.jar}), this JVM's own home unless the environment names one.
     */
    static void environment(Map<String, String> env, Path labRoot) {
        env.put("LAB_ROOT", labRoot.toString());
        String state = System.getProperty("lab.state");
        if (state != null) {
            env.put("LAB_STATE", state);
        }
        String jdk = env.get("LAB_JDK");
        if (jdk == null || jdk.isBlank()) {
            env.put("LAB_JDK", Path.of(System.getProperty("java.home")).toString());
        }
    }

    /** Runs the scenario; returns its exit status. Output is teed into {@code out/scenario.log}. */
    static int run(Path labRoot, String scenario, Path out, boolean quick, boolean flamegraph) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("run", scenario));
        if (quick) {
            args.add("--quick");
        }
        if (flamegraph) {
            args.add("--flamegraph");
        }
        Path runDir = out.toAbsolutePath().getParent().getParent().getParent();
        return script(labRoot, args, out, out.resolve("scenario.log"), runDir, () -> KernelFlamegraphs.render(out));
    }

    /** What runs after the script and before its logs are cleaned (the kernel flamegraphs' SVGs). */
    interface After {
        void run() throws IOException;
    }

    /**
     * Runs {@code lab-kernel.sh ARGS} with {@code LAB_OUT=out}, its output appended to {@code log},
     * its phases shown as it goes ({@link LogFollower}); returns its exit status. The logs under {@code out} are committed with the run {@code runDir}:
     * no machine paths are left in them.
     */
    static int script(Path labRoot, List<String> args, Path out, Path log, Path runDir, After after)
            throws IOException, InterruptedException {
        Files.createDirectories(out);
        Files.createDirectories(log.toAbsolutePath().getParent());
        List<String> cmd = new ArrayList<>(List.of("bash", labRoot.resolve("kernel-scripts/lab-kernel.sh").toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("LAB_OUT", out.toAbsolutePath().toString());
        environment(pb.environment(), labRoot);
        int rc;
        try (LogFollower follow = new LogFollower(log, out, lab.fix.Progress.on(System.err), "lab:   ")) {
            rc = ChildStop.waitFor(ChildStop.start(pb));
        }
        after.run();
        // the logs (scenario.log, a guest's guest-run.log) are committed with the run: no machine paths in them
        List<Path> logs;
        try (Stream<Path> s = Files.walk(out)) {
            logs = s.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().endsWith(".log")).toList();
        }
        String run = runDir.toAbsolutePath().toString();
        for (Path l : logs) {
            // byte for byte (a build's log need not be UTF-8): the paths replaced are the only change
            String text = Files.readString(l, StandardCharsets.ISO_8859_1).replace(run, "<run>").replace(labRoot.toString(), "<lab>");
            Files.writeString(l, text, StandardCharsets.ISO_8859_1);
        }
        return rc;
    }
}
