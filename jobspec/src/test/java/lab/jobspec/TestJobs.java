package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** Asserts that the job file {@code text} is refused at {@code line} and {@code key}, saying {@code words}. */
    static void assertRefused(String text, int line, String key, String words) {
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(Path.of("t.fio"), text));
        assertEquals(line, e.line(), e.getMessage());
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }
}
