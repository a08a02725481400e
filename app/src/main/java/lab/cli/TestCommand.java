package lab.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Listed for {@code --help} only: {@code ./lab test} runs scripts/test.sh (as .ci/run does), which drives Maven. */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = {"Run every test of the lab, as .ci/run does.",
                "The unit tests (Maven Surefire), the jcstress quick run of the sync",
                "primitives, the kernel-scripts tests (as root) and shellcheck over the lab's",
                "scripts. Run as ./lab test (scripts/test.sh). The lab kernels' tests run when",
                "the kernels are built, else skip; ./lab test --lab-kernels builds them first",
                "(34 min of a 2-core VM; README.md)."})
final class TestCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("lab: 'test' is run by scripts/test.sh: use ./lab test");
        return Lab.EXIT_BAD_INPUT;
    }
}
