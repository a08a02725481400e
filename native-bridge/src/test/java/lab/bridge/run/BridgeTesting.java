package lab.bridge.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.bridge.ffi.Liburing;
import lab.jobspec.Job;
import lab.jobspec.JobFileParser;
import lab.jobspec.JobSpecException;
import lab.jobspec.report.FioReport;

/** Job files, runs with captured notes, and the skip predicates of the bridge's tests. */
final class BridgeTesting {

    /** A run's report and what it printed to the notes stream. */
    record Outcome(FioReport report, String notes) {
    }

    private BridgeTesting() {
    }

    static List<Job> jobs(Path dir, String name, String text) throws IOException, JobSpecException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return JobFileParser.parse(f).jobs();
    }

    static Outcome run(List<Job> jobs, BridgeRun.Options options) throws BridgeSetupException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FioReport r = BridgeRun.run(jobs, options, new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Outcome(r, out.toString(StandardCharsets.UTF_8));
    }

    /** Runs the job file {@code text}, written to {@code dir}, with the live ownership rule and the real engines. */
    static Outcome run(Path dir, String text) throws IOException, JobSpecException, BridgeSetupException {
        return run(jobs(dir, "job.fio", text), new BridgeRun.Options(null, false, DeviceOwnership.registry(),
                EngineFactory.REAL));
    }

    /** A fresh folder under the module's target/, on a real file system (not tmpfs), for O_DIRECT files. */
    static Path scratch(String name) throws IOException {
        Path d = Path.of("target", "bridge-tests", name + "-" + ProcessHandle.current().pid()).toAbsolutePath();
        Files.createDirectories(d);
        return d;
    }

    /** A sparse regular file {@code data} of {@code bytes} in a {@link #freshScratch} folder {@code name}, for fio and the bridge to share. */
    static Path sparseFile(String name, long bytes) throws IOException {
        Path file = freshScratch(name).resolve("data");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(bytes);
        }
        return file;
    }

    /** {@link #scratch} with whatever an earlier run left in it removed. */
    static Path freshScratch(String name) throws IOException {
        Path d = scratch(name);
        try (Stream<Path> s = Files.walk(d)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(d)) {
                    Files.delete(p);
                }
            }
        }
        return d;
    }

    /**
     * Runs fio 3.33 ({@code /usr/bin/fio}) on {@code jobFile}, in its folder, and returns the {@code jobs} of its
     * JSON output; skips the calling test where that fio is not installed.
     */
    static JsonNode fioJobs(Path jobFile) throws IOException, InterruptedException {
        return fioJobs(jobFile, 0);
    }

    /** {@link #fioJobs(Path)} for a run whose exit status must be {@code exit} (1 when a job fails; -1 for any). */
    static JsonNode fioJobs(Path jobFile, int exit) throws IOException, InterruptedException {
        Path fio = Path.of("/usr/bin/fio");
        assumeTrue(Files.isExecutable(fio), "fio is not installed");
        Process v = new ProcessBuilder(fio.toString(), "--version").redirectErrorStream(true).start();
        assumeTrue(new String(v.getInputStream().readAllBytes(), StandardCharsets.UTF_8).startsWith("fio-3.33"),
                "not fio 3.33");
        // in the job file's folder: fio leaves files there (a verify job's *-verify.state)
        Process p = new ProcessBuilder(fio.toString(), "--output-format=json", jobFile.toString())
                .directory(jobFile.toAbsolutePath().getParent().toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = p.waitFor();
        if (exit >= 0) {
            assertEquals(exit, status, out);
        }
        return new ObjectMapper().readTree(out.substring(out.indexOf('{'))).get("jobs");
    }

    static void assumeRoot() {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
    }

    static void assumeUring() {
        assumeTrue(Liburing.available(), () -> "liburing unavailable: " + Liburing.unavailableReason());
    }

    /** Skips unless {@code file}'s file system takes O_DIRECT. */
    static void assumeDirect(Path file) {
        try {
            Libc.close(Libc.open(file.toString(), Libc.O_RDONLY | Libc.O_DIRECT | Libc.O_CLOEXEC));
        } catch (ErrnoException e) {
            assumeTrue(false, "no O_DIRECT on " + file + ": " + e.getMessage());
        }
    }
}
