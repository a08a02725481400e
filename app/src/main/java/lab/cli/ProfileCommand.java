package lab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import lab.analysis.scale.CostProfile;
import lab.analysis.scale.FixScale;
import lab.analysis.scale.ProfileFormatException;
import lab.fix.Fixes;
import lab.fix.ProfileSweep;
import lab.results.Manifest;
import lab.results.RunFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lab profile}: this machine's cost profile ({@link ProfileSweep}: each kind of shared-line
 * operation on a shared and a private line at 1..CPUs threads and several gaps, each kind's queue
 * fitted) and what it predicts of each contention fix at 1 to 64 threads, beside the published
 * profiles of the seeds' machine classes and any given with {@code --profile}. The fixes' counts
 * and calibrations come from the newest committed {@code pair-<fix>-*} run that has them, copied
 * into the run so that its notebook is made from its own raw/ alone. Root is not needed.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = {"Measure this machine's cost profile and predict each fix at scale.",
                "Each kind of shared-line operation (atomic add, cmpxchg, rwsem read side,",
                "mutex, SRCU read side, per-cpu slot) on a shared and a private line at",
                "1..CPUs threads and gaps 0, 100 and 1000 ns, each kind's queue fitted",
                "(service S, transfer M, with intervals). Writes results/<run-id>/ with",
                "profile.json and a notebook: each fix's predicted ratio at 1..64 threads on",
                "this profile, the published profiles of the seeds' machines and any",
                "--profile FILE; the seeds against the prediction at their scale; what",
                "today's kernel still shares per I/O. No root needed."})
final class ProfileCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The published many-core profile the list of what is left is priced on, beside this machine's. */
    static final String MANY_CORE = "ice-lake-sp-2x32.json";
    private static final String PUBLISHED = "/lab/profile/published/";

    @Option(names = "--threads", split = ",", paramLabel = "N[,N...]", description = "thread counts (default: 1, 2, 4, ... and the CPUs)")
    List<Integer> threads;

    @Option(names = "--rounds", paramLabel = "R", description = "rounds, thread counts interleaved (default: ${DEFAULT-VALUE}; quick: 1)")
    Integer rounds;

    @Option(names = "--quick", description = "one round, back-to-back operations only (gap 0): a smoke test, S and M less well told apart")
    boolean quick;

    @Option(names = "--profile", paramLabel = "FILE", description = "another machine's profile.json to predict on too (repeatable)")
    List<Path> profiles = new ArrayList<>();

    @Option(names = "--inputs", paramLabel = "DIR", description = "where the fixes' committed pair runs are (default: results/ in the lab)")
    Path inputs;

    @Option(names = "--results", paramLabel = "DIR", description = "results folder (default: results/ in the lab)")
    Path results;

    @Option(names = "--id", paramLabel = "RUN-ID", description = "run id (default: profile-<UTC time>)")
    String id;

    @Override
    public Integer call() throws Exception {
        int cpus = Runtime.getRuntime().availableProcessors();
        List<Integer> t = threads == null ? ProfileSweep.threads(cpus) : threads.stream().distinct().sorted().toList();
        int r = rounds == null ? (quick ? 1 : 3) : rounds;
        List<Long> gaps = quick ? ProfileSweep.QUICK_GAPS : ProfileSweep.GAPS;
        Path dir = results == null ? Lab.root().resolve("results") : results;
        String why = whyNot(t, r, dir);
        if (why != null) {
            System.err.println("lab: profile: " + why);
            return Lab.EXIT_BAD_INPUT;
        }
        Map<String, Path> given = new LinkedHashMap<>();
        try {
            for (Path p : profiles) {
                CostProfile.read(p, ProfileSweep.PROBES.keySet());
                String name = p.getFileName().toString().replaceFirst("\\.json$", "") + ".json";
                if (given.containsKey(name) || published().contains(name)) {
                    System.err.println("lab: profile: --profile " + p + ": a profile named " + name + " is already in the run; rename the file");
                    return Lab.EXIT_BAD_INPUT;
                }
                given.put(name, p);
            }
        } catch (ProfileFormatException e) {
            System.err.println("lab: profile: " + e.getMessage());
            return Lab.EXIT_BAD_INPUT;
        } catch (IOException e) {
            System.err.println("lab: profile: --profile: cannot read " + e.getMessage());
            return Lab.EXIT_BAD_INPUT;
        }
        RunFolder run = RunFolder.start(dir, id == null ? RunFolder.newId("profile") : id);
        try {
            Path raw = run.raw().resolve("profile");
            Files.createDirectories(raw);
            Map<String, Object> m = Manifest.describe(Lab.root(), Lab.commandLine, "jvm");
            m.put("run_id", run.finalDir().getFileName().toString());
            m.put("threads", t);
            m.put("rounds", r);
            m.put("quick", quick);
            m.put("gaps_ns", gaps);
            m.put("jmh", "1 fork(s), 1 x 300 ms warm-up, 3 x 200 ms measured, per cell; " + ProfileSweep.cells(gaps)
                    + " cells per thread count and round");
            Manifest.reproducer(m, Lab.root(), run.raw(), Lab.versions());
            lscpu(raw.resolve("lscpu.json"));
            copyProfiles(run.raw().resolve("profiles"), given);
            copyInputs(run.raw(), inputs == null ? Lab.root().resolve("results") : inputs);
            System.err.printf("lab: profile: %d thread count(s) %s x %d round(s) x %d cells, about %.0f s%n", t.size(), t, r,
                    ProfileSweep.cells(gaps), 1.5 * t.size() * r * ProfileSweep.cells(gaps));
            long t0 = System.nanoTime();
            ProfileSweep.run(raw, t, r, gaps, System.err);
            m.put("took_s", Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
            run.writeJson("manifest.json", m);
            Fixes.notebook(run.dir());
            Path done = run.commit();
            System.err.printf("lab: profile: took %.0f s; wrote %s and %s%n", (System.nanoTime() - t0) / 1e9, done.resolve("profile.json"),
                    done.resolve("NOTEBOOK.md"));
            System.out.println(done);
            return 0;
        } catch (Exception e) {
            run.abandon();
            throw e;
        }
    }

    /** Why the options cannot make a run; null when they can. */
    String whyNot(List<Integer> t, int r, Path dir) {
        if (t.isEmpty() || t.getFirst() < 1 || t.getLast() > 4096) {
            return "--threads " + t + " must be thread counts in 1..4096";
        }
        if (r < 1 || r > 100) {
            return "--rounds " + r + " is not in 1..100";
        }
        return Lab.whyNotRunFolder(id, dir);
    }

    /** The published profiles a run carries: each seed's class's, and the many-core one. */
    static Set<String> published() {
        Set<String> out = new LinkedHashSet<>();
        Fixes.scales().stream().map(FixScale::seedProfile).filter(java.util.Objects::nonNull).forEach(out::add);
        out.add(MANY_CORE);
        return out;
    }

    private static void copyProfiles(Path to, Map<String, Path> given) throws IOException {
        Files.createDirectories(to);
        for (String name : published()) {
            try (InputStream in = ProfileCommand.class.getResourceAsStream(PUBLISHED + name)) {
                if (in == null) {
                    throw new IOException("the lab's published profile " + name + " is missing from the build");
                }
                Files.write(to.resolve(name), in.readAllBytes());
            }
        }
        for (var e : given.entrySet()) {
            Files.copy(e.getValue(), to.resolve(e.getKey()));
        }
    }

    /**
     * Each fix's inputs, from the newest committed {@code pair-<fix>-*} run under {@code results} with
     * counts, a calibration with a base and a summary, into {@code raw/inputs/<fix>/}: {@code counts.json} and
     * {@code calibration.json} copied, {@code source.json} the run's name and its headline.
     */
    static void copyInputs(Path raw, Path results) throws IOException {
        for (FixScale f : Fixes.scales()) {
            Path src = newestWithInputs(results, f.fixId());
            if (src == null) {
                System.err.println("lab: profile: no committed pair-" + f.fixId() + "-* run under " + results
                        + " has counts.json and a calibration: " + f.fixId() + " is left out of the prediction");
                continue;
            }
            Path to = raw.resolve(lab.notebook.ScalePage.INPUTS).resolve(f.fixId());
            Files.createDirectories(to);
            Path from = src.resolve("raw").resolve(f.fixId());
            Files.copy(from.resolve("counts.json"), to.resolve("counts.json"));
            Files.copy(from.resolve("calibration.json"), to.resolve("calibration.json"));
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("run", src.getFileName().toString());
            s.put("headline", JSON.readTree(src.resolve("summary.json").toFile()).path("fixes").path(f.fixId()).path("headline"));
            Files.writeString(to.resolve("source.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(s) + "\n");
            Path k = newestWithKernel(results, f.fixId());
            if (k != null) {
                Map<String, Object> kj = new LinkedHashMap<>();
                kj.put("run", k.getFileName().toString());
                kj.put("headline", JSON.readTree(k.resolve("summary.json").toFile()).path("fixes").path(f.fixId()).path("headline"));
                Files.writeString(to.resolve("kernel.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(kj) + "\n");
            }
        }
    }

    /** The newest committed {@code pair-*} run whose headline of {@code fix} has the kernel's own figure (the lab kernel's switch); null for none. */
    static Path newestWithKernel(Path results, String fix) throws IOException {
        return newest(results, "pair-", p -> JSON.readTree(p.resolve("summary.json").toFile()).path("fixes").path(fix).path("headline")
                .path("kernel").isNumber());
    }

    /** The committed files {@link #copyInputs} reads, relative to the lab: what a fleet ships for a host's profile. */
    static List<String> inputPaths(Path results) throws IOException {
        List<String> out = new ArrayList<>();
        for (FixScale f : Fixes.scales()) {
            Path src = newestWithInputs(results, f.fixId());
            if (src != null) {
                String run = "results/" + src.getFileName();
                out.addAll(List.of(run + "/summary.json", run + "/raw/" + f.fixId() + "/counts.json", run + "/raw/" + f.fixId() + "/calibration.json"));
            }
            Path k = newestWithKernel(results, f.fixId());
            if (k != null && !out.contains("results/" + k.getFileName() + "/summary.json")) {
                out.add("results/" + k.getFileName() + "/summary.json");
            }
        }
        return out;
    }

    static Path newestWithInputs(Path results, String fix) throws IOException {
        return newest(results, "pair-" + fix + "-", p -> {
            Path f = p.resolve("raw").resolve(fix);
            return Files.exists(f.resolve("counts.json")) && Files.exists(f.resolve("calibration.json"))
                    && JSON.readTree(f.resolve("calibration.json").toFile()).path("baseNs").asDouble(0) > 0;
        });
    }

    /** A test of a committed run that may read its files. */
    @FunctionalInterface
    private interface RunTest {
        boolean test(Path run) throws IOException;
    }

    /**
     * The newest committed run under {@code results} named {@code prefix...} with a summary.json that
     * passes {@code test}: newest by the date its name ends with (then by name), as run ids are
     * {@code pair-<what>-<cores>-<yyyymmdd>[suffix]}; null for none.
     */
    private static Path newest(Path results, String prefix, RunTest test) throws IOException {
        if (!Files.isDirectory(results)) {
            return null;
        }
        try (Stream<Path> s = Files.list(results)) {
            for (Path p : s.filter(x -> x.getFileName().toString().startsWith(prefix) && Files.exists(x.resolve("summary.json")))
                    .sorted(java.util.Comparator.comparing((Path x) -> x.getFileName().toString().replaceAll("^.*-(\\d{8}\\w*)$", "$1"))
                            .thenComparing(x -> x.getFileName().toString()).reversed()).toList()) {
                if (test.test(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    /** {@code lscpu -J} into {@code out}: the machine's sockets, cores and NUMA nodes as util-linux reports them. */
    private static void lscpu(Path out) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("lscpu", "-J").redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("LC_ALL", "C");
        try {
            Process p = pb.start();
            byte[] b = p.getInputStream().readAllBytes();
            if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
                Files.writeString(out, new String(b, StandardCharsets.UTF_8));
            } else {
                System.err.println("lab: profile: lscpu -J failed: the machine's sockets and NUMA nodes are taken as one");
            }
        } catch (IOException e) {
            System.err.println("lab: profile: no lscpu (" + e.getMessage() + "): the machine's sockets and NUMA nodes are taken as one");
        }
    }
}
