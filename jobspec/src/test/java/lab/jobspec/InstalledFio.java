package lab.jobspec;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The fio 3.33 on PATH, for tests that hold the lab to fio itself; skipped where there is none. */
final class InstalledFio {
    /** What one fio command printed (stdout and stderr together) and its exit status. */
    record Result(int exit, String output) {
    }

    private final Path fio;

    private InstalledFio(Path fio) {
        this.fio = fio;
    }

    /** fio on PATH, or the calling test is skipped; also skipped for a fio other than 3.33, whose options differ. */
    static InstalledFio require() throws IOException, InterruptedException {
        Path fio = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, "fio"))
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
        assumeTrue(fio != null, "fio is not on PATH");
        InstalledFio f = new InstalledFio(fio);
        String version = f.run("--version").output().strip();
        assumeTrue(version.startsWith("fio-3.33"), "the lab follows fio 3.33; this fio is " + version);
        return f;
    }

    /** Runs {@code fio ARGS...} to the end. */
    Result run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(fio.toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out);
    }
}
