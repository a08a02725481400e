package lab.cli;

import java.io.IOException;
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
        Files.createDirectories(out);
        List<String> cmd = new ArrayList<>(List.of("bash", labRoot.resolve("kernel-scripts/lab-kernel.sh").toString(), "run", scenario));
        if (quick) {
            cmd.add("--quick");
        }
        if (flamegraph) {
            cmd.add("--flamegraph");
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(out.resolve("scenario.log").toFile()));
        pb.environment().put("LAB_OUT", out.toAbsolutePath().toString());
        environment(pb.environment(), labRoot);
        int rc = pb.start().waitFor();
        KernelFlamegraphs.render(out); // the SVG beside each kernel flamegraph the scenario recorded
        // the logs (scenario.log, a guest's guest-run.log) are committed with the run: no machine paths in them
        Path runDir = out.toAbsolutePath().getParent().getParent().getParent();
        List<Path> logs;
        try (Stream<Path> s = Files.walk(out)) {
            logs = s.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().endsWith(".log")).toList();
        }
        for (Path log : logs) {
            Files.writeString(log, Files.readString(log).replace(runDir.toString(), "<run>").replace(labRoot.toString(), "<lab>"));
        }
        return rc;
    }
}
