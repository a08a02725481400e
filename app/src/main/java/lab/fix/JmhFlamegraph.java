package lab.fix;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import lab.results.RunFolder;
import org.openjdk.jmh.profile.AsyncProfiler;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * One CPU flamegraph of one JMH variant: JMH's async-profiler integration ({@code -prof async},
 * output=flamegraph, event=cpu, 1 ms) with the linux-x64 library that the
 * {@code tools.profiler:async-profiler} artifact carries, copied to {@code out} as HTML.
 */
public final class JmhFlamegraph {
    private JmhFlamegraph() {}

    /** Runs {@code options} (one variant, one fork) under the profiler and keeps its flamegraph as {@code out}. */
    /**
     * The variants a fix records a flamegraph of: every one in a full run; in a quick one the
     * headline's two, {@code base} and {@code cand}, the profiles a reader sets side by side
     * (./lab demo's time, issue 33).
     */
    public static java.util.List<String> variants(boolean quick, java.util.List<String> all, String base, String cand) {
        return quick ? java.util.List.of(base, cand) : all;
    }

    public static void record(ChainedOptionsBuilder options, Path out) throws Exception {
        Path tmp = Files.createTempDirectory("lab-flame");
        try {
            new Runner(options.addProfiler(AsyncProfiler.class,
                    "libPath=" + library() + ";output=flamegraph;event=cpu;interval=1000000;dir=" + tmp).build()).run();
            Path html = find(tmp);
            if (html != null) {
                Files.createDirectories(out.getParent());
                Files.copy(html, out, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            RunFolder.deleteTree(tmp);
        }
    }

    private static Path find(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("flame-.*-forward\\.html")).sorted().findFirst().orElse(null);
        }
    }

    /** The library, copied once out of the artifact into the lab's state folder. */
    private static Path library() throws IOException {
        Path dir = Path.of(System.getProperty("lab.state", System.getProperty("java.io.tmpdir"))).resolve("async-profiler");
        Path lib = dir.resolve("libasyncProfiler.so");
        try (InputStream in = one.profiler.AsyncProfiler.class.getResourceAsStream("/linux-x64/libasyncProfiler.so")) {
            if (in == null) {
                throw new IOException("the async-profiler artifact carries no linux-x64/libasyncProfiler.so");
            }
            byte[] bytes = in.readAllBytes();
            if (!Files.exists(lib) || Files.size(lib) != bytes.length) {
                Files.createDirectories(dir);
                Path tmp = Files.createTempFile(dir, "lib", ".so");
                Files.write(tmp, bytes);
                Files.move(tmp, lib, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        return lib;
    }
}
