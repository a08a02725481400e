package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.InvokeInstruction;
import java.net.URI;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A figure is estimated once, by the estimation stage ({@code lab.analysis.estimate}, the fidelity
 * model), and pages print the estimate: no class of the notebook's pages ({@code lab.notebook},
 * {@code lab.fix}) calls a statistic ({@code Stats}, {@code Estimator}, {@code RoundRatio},
 * {@code NoiseFloor.of}, {@code RatioOfRatios.of}, {@code DifferenceOfMeans.of}, a {@code JmhSweep}'s scores) while it renders. A page class may make its
 * figures where it is built from raw/ ({@code of}, {@code read}, a constructor, {@code estimate*}), never in the
 * methods that write markdown, charts or summary.json. Read from the compiled classes, so a
 * call through any helper of the class is seen.
 *
 * <p>{@link lab.analysis.estimate.SweepEstimates}' getters that make a figure ({@link #SWEEP_FIGURES})
 * count as statistics too: a page prints the figures its builder asked for, never asks again. The
 * run-time half of the rule is {@link lab.analysis.estimate.EstimationStage}'s: a figure first asked
 * for while a page renders throws (every committed run renders under it, {@code CommittedRunsTest}).
 *
 * <p>{@link #NOT_YET_SPLIT} names the page classes that still estimate while they render: the
 * kernel-side tables, each a later step of the same work. The test fails when one of them is
 * split (take it off the list) as when any other class starts computing.
 */
class PagesComputeNothingTest {
    /** Pages that still compute while rendering, and why they are left: the list only shrinks. */
    static final Set<String> NOT_YET_SPLIT = Set.of();

    /** Classes that compute while a run measures (calibrations, adaptive rounds), not while a page renders. */
    static final Set<String> MEASUREMENT = Set.of("lab/fix/Adaptive", "lab/fix/Trials", "lab/fix/Calibrations", "lab/fix/CoverageSim");

    /**
     * {@link lab.analysis.estimate.SweepEstimates}' getters that make a figure the first time they
     * are asked: a page reads the figure from what its builder made, never from these (at run time
     * {@link lab.analysis.estimate.EstimationStage} throws where one makes a new figure while a page renders).
     */
    static final Set<String> SWEEP_FIGURES = Set.of("ns", "throughput", "scaling", "ratio", "aa", "perRound", "aaAcross", "across",
            "slope", "deltaSlope", "forkCv", "bytesPerOp", "lkpRow");

    /** Whether a call to {@code owner.name} computes a statistic. */
    static boolean statistic(String owner, String name) {
        return switch (owner) {
            case "lab/analysis/Stats", "lab/analysis/estimate/Estimator", "lab/analysis/fidelity/RoundRatio" -> true;
            case "lab/analysis/fidelity/NoiseFloor" -> name.equals("of") || name.equals("ofIterations");
            case "lab/analysis/estimate/RatioOfRatios", "lab/analysis/estimate/DifferenceOfMeans" -> name.equals("of");
            case "lab/analysis/JmhSweep" -> Set.of("scoresByRound", "perRound", "samples", "forkCv", "bytesPerOp").contains(name);
            case "lab/analysis/estimate/SweepEstimates" -> SWEEP_FIGURES.contains(name);
            default -> false;
        };
    }

    /** Whether {@code method} builds a figure object from raw/ (where a page may estimate). */
    static boolean builds(String method) {
        String m = method.startsWith("lambda$") ? method.split("\\$")[1] : method;
        return m.equals("of") || m.equals("read") || m.startsWith("estimate") || m.equals("<init>") || m.equals("new")
                || m.equals("<clinit>") || m.equals("static");
    }

    /** Every page method that computes a statistic, as {@code class.method -> owner.name}, of the classes given. */
    static Map<String, Set<String>> violations(Map<String, byte[]> classes) {
        Map<String, Set<String>> out = new TreeMap<>();
        classes.forEach((name, bytes) -> {
            ClassModel c = ClassFile.of().parse(bytes);
            String cls = c.thisClass().asInternalName();
            String outer = cls.contains("$") ? cls.substring(0, cls.indexOf('$')) : cls;
            if (MEASUREMENT.contains(outer) || outer.endsWith("Pairing")) {
                return;
            }
            for (MethodModel m : c.methods()) {
                String method = m.methodName().stringValue();
                if (builds(method)) {
                    continue;
                }
                m.code().ifPresent(code -> code.forEach(e -> {
                    if (e instanceof InvokeInstruction i && statistic(i.owner().asInternalName(), i.name().stringValue())) {
                        out.computeIfAbsent(outer, k -> new TreeSet<>()).add(cls.substring(cls.lastIndexOf('/') + 1) + "." + method + " -> "
                                + i.owner().asInternalName().substring(i.owner().asInternalName().lastIndexOf('/') + 1) + "." + i.name().stringValue());
                    }
                }));
            }
        });
        return out;
    }

    /** The compiled classes of a package on the class path, main output only (not tests). */
    static Map<String, byte[]> classes(String pkg) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        for (URL u : Collections.list(PagesComputeNothingTest.class.getClassLoader().getResources(pkg))) {
            if (u.toString().contains("test-classes")) {
                continue;
            }
            if (u.getProtocol().equals("jar")) {
                String s = u.toString();
                try (FileSystem fs = FileSystems.newFileSystem(URI.create(s.substring(0, s.indexOf("!/"))), Map.of())) {
                    collect(fs.getPath(pkg), out);
                }
            } else {
                collect(Path.of(URI.create(u.toString())), out);
            }
        }
        return out;
    }

    private static void collect(Path dir, Map<String, byte[]> out) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".class")).toList()) {
                out.put(p.toString(), Files.readAllBytes(p));
            }
        }
    }

    @Test
    void noPageComputesAStatisticWhileItRenders() throws IOException {
        Map<String, byte[]> all = new TreeMap<>(classes("lab/notebook"));
        all.putAll(classes("lab/fix"));
        assertTrue(all.size() > 50, "the pages' classes were found: " + all.size());
        Map<String, Set<String>> found = violations(all);
        List<String> unexpected = new ArrayList<>();
        found.forEach((cls, calls) -> {
            if (!NOT_YET_SPLIT.contains(cls)) {
                unexpected.add(cls + ": " + calls);
            }
        });
        assertEquals(List.of(), unexpected, "pages that compute while they render (estimate in the stage, print the estimate)");
        List<String> split = NOT_YET_SPLIT.stream().filter(c -> !found.containsKey(c)).sorted().toList();
        assertEquals(List.of(), split, "no longer computing while rendering: take them off NOT_YET_SPLIT");
    }

    /** The check itself can fail: a page that takes a median while it writes its table is caught, one that is built from it is not. */
    @Test
    void theCheckCatchesAPageThatTakesAMedianWhileItRenders() throws IOException {
        Map<String, byte[]> fixture = new TreeMap<>();
        for (Class<?> c : List.of(RendersAMedian.class, BuildsAMedian.class)) {
            String res = c.getName().replace('.', '/') + ".class";
            try (var in = c.getClassLoader().getResourceAsStream(res)) {
                fixture.put(res, in.readAllBytes());
            }
        }
        Map<String, Set<String>> v = violations(fixture);
        assertEquals(Set.of("lab/fix/PagesComputeNothingTest"), v.keySet(), v.toString());
        Set<String> calls = v.get("lab/fix/PagesComputeNothingTest");
        assertTrue(calls.stream().anyMatch(x -> x.startsWith("PagesComputeNothingTest$RendersAMedian.table -> Stats.median")), calls.toString());
        assertFalse(calls.stream().anyMatch(x -> x.contains("BuildsAMedian")), calls.toString());
    }

    /**
     * A page that asks {@code SweepEstimates} for a figure while it writes its table is caught, even
     * where the figure was made before (the run-time stage would let that one through: the static
     * check holds pages to printing what their builder made); one whose builder asked is not.
     */
    @Test
    void theCheckCatchesAPageThatAsksForASweepFigureWhileItRenders() throws IOException {
        Map<String, byte[]> fixture = new TreeMap<>();
        for (Class<?> c : List.of(RendersARatio.class, BuildsARatio.class)) {
            String res = c.getName().replace('.', '/') + ".class";
            try (var in = c.getClassLoader().getResourceAsStream(res)) {
                fixture.put(res, in.readAllBytes());
            }
        }
        Map<String, Set<String>> v = violations(fixture);
        assertEquals(Map.of("lab/fix/PagesComputeNothingTest", Set.of("PagesComputeNothingTest$RendersARatio.table -> SweepEstimates.ratio",
                "PagesComputeNothingTest$RendersARatio.floor -> SweepEstimates.aa")), v);
    }

    static final class RendersARatio {
        String table(lab.analysis.estimate.SweepEstimates s) {
            return "| " + s.ratio(Map.of("v", "a"), Map.of("v", "b"), 1) + " |";
        }

        Object floor(lab.analysis.estimate.SweepEstimates s) {
            return s.aa(Map.of("v", "a"), Map.of("v", "a~aa"), 1);
        }
    }

    record BuildsARatio(lab.analysis.estimate.Estimate ratio) {
        static BuildsARatio of(lab.analysis.estimate.SweepEstimates s) {
            return new BuildsARatio(s.ratio(Map.of("v", "a"), Map.of("v", "b"), 1));
        }

        String table() {
            return "| " + ratio + " |";
        }
    }

    static final class RendersAMedian {
        String table(List<Double> x) {
            return "| " + lab.analysis.Stats.median(x) + " |";
        }
    }

    record BuildsAMedian(double median) {
        static BuildsAMedian of(List<Double> x) {
            return new BuildsAMedian(lab.analysis.Stats.median(x));
        }

        String table() {
            return "| " + median + " |";
        }
    }
}
