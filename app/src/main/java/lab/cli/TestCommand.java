package lab.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Listed for {@code --help} only: {@code ./lab test} is run by the lab script, which drives Maven. */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = {"Run every test: unit tests (Maven Surefire), the jcstress quick run of the",
                "sync primitives, and shellcheck over the lab's scripts. Run as ./lab test."})
final class TestCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("lab: 'test' is run by the ./lab script itself: use ./lab test");
        return Lab.EXIT_BAD_INPUT;
    }
}
