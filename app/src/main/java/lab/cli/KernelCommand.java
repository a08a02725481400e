package lab.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Listed for {@code --help} only: {@code ./lab kernel ...} runs kernel-scripts/lab-kernel.sh (bash). */
@Command(name = "kernel", mixinStandardHelpOptions = true,
        description = {"Real devices made and torn down safely (kernel-scripts/, run as root):",
                "  ./lab kernel status            what the lab's registry holds; which drivers are native",
                "  ./lab kernel up SPEC / down    make or remove devices (e.g. zram:1G, loop:256M)",
                "  ./lab kernel run SCENARIO [--quick]   a scenario of kernel-scripts/scenarios/",
                "  ./lab kernel cleanup           remove everything in the registry (idempotent)",
                "Only devices in the lab's registry are ever written, reset or removed."})
final class KernelCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("lab: 'kernel' is run by the ./lab script itself: use ./lab kernel SUBCOMMAND");
        return Lab.EXIT_BAD_INPUT;
    }
}
