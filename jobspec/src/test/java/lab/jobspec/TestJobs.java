package lab.jobspec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Jobs for tests, made the only way jobs are made: by parsing a job file. */
final class TestJobs {
    private TestJobs() {
    }

    /** The one job of {@code [j]} followed by {@code lines}, written to {@code dir}. */
    static Job job(Path dir, String lines) throws IOException, JobSpecException {
        Path file = Files.createTempFile(dir, "job", ".fio");
        Files.writeString(file, "[j]\n" + lines + "\n");
        return JobFileParser.parse(file).jobs().get(0);
    }
}
