package lab.engine.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import lab.jobspec.Job;
import lab.jobspec.JobFileParser;
import lab.jobspec.JobSpecException;

/*
 * One job file per fix, read by both sides. The kernel side runs
 * examples/<fix>*.fio with fio or the bridge; the benchmarks take their
 * per-I/O workload (rw, rwmixread, bs and, where the model uses it, the data
 * pattern) from the same file, so the two cannot drift apart. The build copies
 * ../examples/*.fio into the jar next to this class (jvm-engine/pom.xml), and
 * a benchmark parses its example at @Setup with jobspec's JobFileParser, the
 * parser every other reader of a job file uses, from the embedded text under
 * the name examples/<name>.fio, which its messages and Job.source() give.
 *
 * What the model fixes by itself stays each benchmark's, documented there:
 * thread count (JMH's -t, not numjobs), the modelled device's size (not
 * size/offset), and what a synchronous in-process submitter makes of iodepth
 * and ioengine.
 */

/** A fix's example job file as embedded in the jar, parsed with {@link JobFileParser}. */
final class ExampleJob {
    /** The examples' folder in the jar, relative to this class. */
    static final String FOLDER = "examples/";

    private ExampleJob() {
    }

    /** The text of {@code examples/<name>.fio} as the build embedded it. */
    static String text(String name) {
        try (InputStream in = ExampleJob.class.getResourceAsStream(FOLDER + name + ".fio")) {
            if (in == null) {
                throw new IllegalStateException("examples/" + name + ".fio is not in the jar (the build copies"
                        + " ../examples/*.fio into lab/engine/bench/examples/: rebuild jvm-engine)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading examples/" + name + ".fio", e);
        }
    }

    /**
     * The one job of {@code examples/<name>.fio}, with {@code overrides} (job-file lines) appended
     * to its last section, the job's, where each replaces the key's earlier value.
     */
    static Job load(String name, List<String> overrides) {
        return parse(name, text(name), overrides);
    }

    /** {@link #load} for a text given as {@code examples/<name>.fio} (tests: a changed copy). */
    static Job parse(String name, String text, List<String> overrides) {
        StringBuilder b = new StringBuilder(text);
        if (!text.endsWith("\n")) {
            b.append('\n');
        }
        for (String line : overrides) {
            b.append(line).append('\n');
        }
        Path source = Path.of("examples", name + ".fio");
        try {
            List<Job> jobs = JobFileParser.parse(source, b.toString()).jobs();
            if (jobs.size() != 1) {
                throw new IllegalArgumentException(source + ": " + jobs.size() + " jobs; a benchmark runs one");
            }
            return jobs.get(0);
        } catch (JobSpecException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Where {@code job} was written, for messages: {@code examples/<name>.fio:LINE} of its section. */
    static String where(Job job) {
        return job.source() + ":" + job.line();
    }
}
