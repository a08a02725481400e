package lab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.openjdk.jmh.profile.AsyncProfiler;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The lab's calibration entry: the sync primitives benchmark on the JVM side (JMH, interleaved
 * rounds over the thread sweep), and today's real zram as the per-I/O cost floor on the kernel
 * side (scenario {@code zram-floor}).
 */
final class PrimitivesPairing implements Pairing {
    /** The primitives of {@code lab.engine.bench.Primitives}' {@code @Param}, one flamegraph each. */
    static final List<String> VARIANTS = List.of("atomic-refcount", "percpu-ref", "srcu", "rwsem-read", "mutex",
            "percpu-counter", "padded-slot", "unpadded-slot");

    @Override
    public String fixId() { return "primitives"; }

    @Override
    public String kernelScenario() { return "zram-floor"; }

    @Override
    public void jvm(Ctx c) throws Exception {
        var profile = c.quick() ? PrimitivesBench.Profile.QUICK : PrimitivesBench.Profile.FULL;
        PrimitivesBench.run(c.raw(), c.threads(), c.rounds(), profile, c.progress());
    }

    /**
     * JMH's async-profiler integration ({@code -prof async}, output=flamegraph) with the library
     * the {@code tools.profiler:async-profiler} artifact carries, one short fork per primitive at
     * the highest thread count: {@code flamegraphs/primitives/<primitive>.html}.
     */
    @Override
    public void flamegraphs(Ctx c) throws Exception {
        Path lib = AsyncProfilerLib.extract();
        int t = c.threads().stream().mapToInt(Integer::intValue).max().orElse(1);
        Files.createDirectories(c.flamegraphs());
        for (String v : VARIANTS) {
            Path tmp = Files.createTempDirectory("lab-flame");
            try {
                new Runner(new OptionsBuilder()
                        .include(PrimitivesBench.BENCHMARK)
                        .param("primitive", v)
                        .threads(t).forks(1)
                        .warmupIterations(1).warmupTime(TimeValue.milliseconds(300))
                        .measurementIterations(c.quick() ? 2 : 4).measurementTime(TimeValue.milliseconds(c.quick() ? 300 : 1000))
                        .jvmArgs("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow")
                        .addProfiler(AsyncProfiler.class, "libPath=" + lib + ";output=flamegraph;event=cpu;interval=1000000;dir=" + tmp)
                        .verbosity(VerboseMode.SILENT).build()).run();
                Path html = findFlame(tmp);
                if (html != null) {
                    Files.copy(html, c.flamegraphs().resolve(v + ".html"), StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                deleteTree(tmp);
            }
        }
    }

    static Path findFlame(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("flame-.*-forward\\.html")).sorted().findFirst().orElse(null);
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The linux-x64 async-profiler library, copied once out of the artifact into the lab's state folder. */
    static final class AsyncProfilerLib {
        private AsyncProfilerLib() {}

        static Path extract() throws IOException {
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
}
