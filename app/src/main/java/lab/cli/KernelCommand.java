package lab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ./lab kernel ARGS...}: runs {@code kernel-scripts/lab-kernel.sh ARGS...} with this
 * terminal (standard streams inherited), {@code LAB_ROOT}, {@code LAB_STATE} and {@code LAB_JDK}
 * ({@link KernelScenario#environment}), and exits with its status. After {@code run}, the kernel
 * flamegraphs the scenario recorded get their SVGs ({@link KernelFlamegraphs}): under
 * {@code LAB_OUT} when set, and in the run folders of {@code LAB_RESULTS} (default
 * {@code results/}) written during the run.
 *
 * <p>The script runs in this process group, so Ctrl-C reaches it too; a shutdown hook waits for
 * it, so its teardown has finished when the prompt returns. A signal sent to this JVM alone is
 * not passed on: signal the process group.
 */
@Command(name = "kernel", mixinStandardHelpOptions = true,
        description = {"Real devices, made and removed safely as root.",
                "ARGS go to kernel-scripts/lab-kernel.sh, whose commands are:",
                "  status                 the lab's registry; which drivers are native",
                "  up SPEC... / down      make or remove devices (zram:1G, loop:256M, ...)",
                "  run SCENARIO [--quick] [--flamegraph] [--kernel debian|lab]",
                "                         kernel-scripts/scenarios/SCENARIO/run.sh",
                "  build [--source 6.1|6.12 | --for FIX...]",
                "                         build the lab kernel (kernel-scripts/kernel/build.sh):",
                "                         Debian's linux-source, each fix's before switchable",
                "  lab-ab FIX [--quick]   FIX's switch A/B on the lab kernel in the guest VM,",
                "                         on the source of its switch (thin-bufio-lock: 6.12)",
                "  overhead [--quick]     Debian's kernel against the lab kernel, and the lab",
                "                         kernel without its tracing block (the events off)",
                "  refscale [--quick]     the kernel's own ns per operation (refscale) in the",
                "                         guest on the lab kernel, at 1 reader and one a vCPU",
                "  cleanup                remove everything in the registry (idempotent)",
                "  check, fill, iostats, sched, weight: see kernel-scripts/README.md",
                "./lab kernel COMMAND --help prints that command's usage.",
                "Only devices in the lab's registry are ever written, reset or removed."})
final class KernelCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "lab-kernel.sh's command and its arguments")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path root = Lab.root();
        Path script = root.resolve("kernel-scripts/lab-kernel.sh");
        if (!Files.isRegularFile(script)) {
            System.err.println("lab: kernel-scripts/lab-kernel.sh is missing");
            return Lab.EXIT_FAILED;
        }
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        KernelScenario.environment(pb.environment(), root);
        FileTime start = FileTime.fromMillis(System.currentTimeMillis() - 1000);
        int rc = ChildStop.waitFor(ChildStop.start(pb));
        if (!args.isEmpty() && args.getFirst().equals("run")) {
            for (Path dir : recorded(pb.environment().get("LAB_OUT"), pb.environment().get("LAB_RESULTS"), root, start)) {
                KernelFlamegraphs.render(dir);
            }
        }
        return rc;
    }

    /** Where a scenario run since {@code start} may have left kernel flamegraphs. */
    private static List<Path> recorded(String labOut, String labResults, Path root, FileTime start) throws IOException {
        List<Path> dirs = new ArrayList<>();
        if (labOut != null && !labOut.isBlank()) {
            dirs.add(Path.of(labOut));
        }
        Path results = labResults == null || labResults.isBlank() ? root.resolve("results") : Path.of(labResults);
        if (Files.isDirectory(results)) {
            try (Stream<Path> s = Files.list(results)) {
                for (Path d : s.filter(Files::isDirectory).toList()) {
                    if (Files.getLastModifiedTime(d).compareTo(start) >= 0) {
                        dirs.add(d);
                    }
                }
            }
        }
        return dirs;
    }
}
