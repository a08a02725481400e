package lab.engine.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;
import lab.engine.count.ContentionCounts;

/*
 * Contention runs (ContentionRun, through the *Counts classes' contention
 * methods) of the cells a JMH run line names, one after another in this
 * JVM, each line into OUT/NAME.json. The file is JmhBatch's (a run a line,
 * "NAME ARG...", "-P name=value" a value a flag): the app's AmplifiedModel
 * writes the amplified sweep's own line once more, its iterations dropped,
 * so the counted cells are the timed ones (the benchmark, -t, every
 * parameter's values and their product, baseNs and userNs); the guest
 * (kernel/jmh-guest.sh) runs the file in a JVM of its own after the JMH
 * rounds, the host (AmplifiedModel.run) in the app's JVM: one writer, one
 * format. Iteration options are read and ignored; a benchmark this class
 * has no contention run for, or a parameter a cell needs and the line
 * lacks, is refused. Each thread does CountRun's warm-up and then
 * IOS_PER_THREAD counted I/Os.
 *
 * OUT/NAME.json: {"benchmark": "lab.engine.bench.X.io", "threads": T,
 * "ios_per_thread": N, "cells": [{"params": {name: value, ...}, "ios": I,
 * "locksPerIo": {site: {side: {lockAcquired, lockContended, lockWaitNs}}},
 * "handoffsPerIo": {line: per I/O}}, ...]} (ContentionCounts' fields).
 *
 * --cpus-after-first LIST: as JmhBatch's (the guest starts the JVM on one
 * vCPU; the file's first line is then a warm-up whose JSON is not read).
 *
 * Usage: ContentionMain FILE OUT [--cpus-after-first LIST]
 */

/** Contention runs of the cells of JmhBatch-style lines, each line's cells into one JSON. */
public final class ContentionMain {
    private ContentionMain() {}

    /** Counted I/Os per thread of a cell: a few thousand, a fraction of a second at a guest's CPU per I/O. */
    public static final long IOS_PER_THREAD = 2_000;

    /** A benchmark's contention run: the parameters a cell takes (in product order), and the run of one cell. */
    private record Bench(String method, List<String> params, Map<String, String> defaults, Counted run) {}

    @FunctionalInterface
    private interface Counted {
        ContentionCounts of(Map<String, String> p, ToLongFunction<String> num, int threads, long ios);
    }

    private static final List<Bench> BENCHES = List.of(
            new Bench("lab.engine.bench.ThinBufioLock.io", List.of("variant", "amp", "target", "cache", "baseNs", "userNs"), work(),
                    (p, n, t, ios) -> ThinBufioLockCounts.contention(p.get("variant"), (int) n.applyAsLong("amp"), p.get("target"),
                            p.get("cache"), n.applyAsLong("baseNs"), n.applyAsLong("userNs"), t, ios)),
            new Bench("lab.engine.bench.ZramInitLock.io", List.of("guard", "sections", "rw", "pattern", "baseNs"), work(),
                    (p, n, t, ios) -> ZramCounts.contention(p.get("guard"), (int) n.applyAsLong("sections"), p.get("rw"), p.get("pattern"),
                            n.applyAsLong("baseNs"), t, ios)),
            new Bench("lab.engine.bench.DmCssRef.io", List.of("variant", "depth", "device", "inject", "baseNs", "userNs"), work(),
                    (p, n, t, ios) -> DmCssRefCounts.contention(p.get("variant"), (int) n.applyAsLong("depth"), p.get("device"),
                            p.get("inject"), n.applyAsLong("baseNs"), n.applyAsLong("userNs"), t, ios)),
            new Bench("lab.engine.bench.PartAcct.io", List.of("variant", "amp", "target", "baseNs", "userNs"), work(),
                    (p, n, t, ios) -> PartAcctCounts.contention(p.get("variant"), (int) n.applyAsLong("amp"), p.get("target"),
                            n.applyAsLong("baseNs"), n.applyAsLong("userNs"), t, ios)));

    private static Map<String, String> work() {
        return Map.of("baseNs", "0", "userNs", "0");
    }

    public static void main(String[] args) throws Exception {
        boolean widen = args.length == 4 && args[2].equals("--cpus-after-first") && args[3].matches("[0-9][0-9,-]*");
        if (args.length != 2 && !widen) {
            System.err.println("usage: ContentionMain FILE OUT [--cpus-after-first LIST]");
            System.exit(2);
        }
        List<JmhBatch.Run> runs;
        try {
            runs = JmhBatch.read(Path.of(args[0]), Path.of(args[1]));
            runs.forEach(ContentionMain::bench);
        } catch (JmhBatch.Malformed | IllegalArgumentException e) {
            System.err.println("ContentionMain: " + e.getMessage());
            System.exit(2);
            return;
        }
        for (int i = 0; i < runs.size(); i++) {
            JmhBatch.Run r = runs.get(i);
            System.err.println("ContentionMain: " + r.name() + " (line " + r.line() + ") on CPUs " + JmhBatch.cpusAllowed());
            write(r, Path.of(args[1]), IOS_PER_THREAD);
            String why = i == 0 && widen ? JmhBatch.widen(args[3]) : null;
            if (why != null) {
                System.err.println("ContentionMain: " + why);
                System.exit(1);
            }
        }
    }

    /** Runs every line of {@code file} into {@code out/NAME.json}, {@code iosPerThread} counted I/Os a thread a cell. */
    public static void runFile(Path file, Path out, long iosPerThread) throws IOException, JmhBatch.Malformed {
        List<JmhBatch.Run> runs = JmhBatch.read(file, out);
        runs.forEach(ContentionMain::bench);
        for (JmhBatch.Run r : runs) {
            write(r, out, iosPerThread);
        }
    }

    /** The benchmark of {@code r}'s line (its include pattern found in one benchmark's name); refused where none or several. */
    private static Bench bench(JmhBatch.Run r) {
        List<Bench> b = new ArrayList<>();
        for (String include : r.options().getIncludes()) {
            BENCHES.stream().filter(x -> Pattern.compile(include).matcher(x.method()).find() && !b.contains(x)).forEach(b::add);
        }
        if (b.size() != 1) {
            throw new IllegalArgumentException("line " + r.line() + ": " + r.options().getIncludes() + " names " + b.size()
                    + " benchmark(s) with a contention run, not one (" + BENCHES.stream().map(Bench::method).toList() + ")");
        }
        for (String p : b.get(0).params()) {
            if (!b.get(0).defaults().containsKey(p) && r.options().getParameter(p).orElse(List.of()).isEmpty()) {
                throw new IllegalArgumentException("line " + r.line() + ": no -P " + p + "=VALUE");
            }
        }
        return b.get(0);
    }

    /** The cells of {@code r}: the product of its parameters' values, in the benchmark's parameter order. */
    static List<Map<String, String>> cells(JmhBatch.Run r) {
        Bench b = bench(r);
        List<Map<String, String>> cells = new ArrayList<>(List.of(new LinkedHashMap<>()));
        for (String p : b.params()) {
            Collection<String> values = r.options().getParameter(p).orElse(List.of());
            if (values.isEmpty()) {
                values = List.of(b.defaults().getOrDefault(p, ""));
            }
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : cells) {
                for (String v : values) {
                    Map<String, String> m = new LinkedHashMap<>(c);
                    m.put(p, v);
                    next.add(m);
                }
            }
            cells = next;
        }
        return cells;
    }

    /** Runs the cells of {@code r} and writes {@code out/NAME.json}. */
    static void write(JmhBatch.Run r, Path out, long iosPerThread) throws IOException {
        Bench b = bench(r);
        int threads = r.options().getThreads().orElse(1);
        StringBuilder j = new StringBuilder("{\n  \"benchmark\": ").append(str(b.method())).append(",\n  \"threads\": ").append(threads)
                .append(",\n  \"ios_per_thread\": ").append(iosPerThread).append(",\n  \"cells\": [");
        String sep = "\n";
        for (Map<String, String> cell : cells(r)) {
            ContentionCounts c = b.run().of(cell, k -> Long.parseLong(cell.get(k)), threads, iosPerThread);
            j.append(sep).append("    {\"params\": ").append(obj(cell, ContentionMain::str)).append(", \"ios\": ").append(c.ios())
                    .append(",\n     \"locksPerIo\": ")
                    .append(obj(c.locksPerIo(), sides -> obj(sides, m -> obj(m, v -> Double.toString(v)))))
                    .append(",\n     \"handoffsPerIo\": ").append(obj(c.handoffsPerIo(), v -> Double.toString(v))).append("}");
            sep = ",\n";
        }
        j.append("\n  ]\n}\n");
        Files.createDirectories(out);
        Files.writeString(out.resolve(r.name() + ".json"), j);
    }

    private static <V> String obj(Map<String, V> m, java.util.function.Function<V, String> value) {
        StringBuilder b = new StringBuilder("{");
        String sep = "";
        for (Map.Entry<String, V> e : m.entrySet()) {
            b.append(sep).append(str(e.getKey())).append(": ").append(value.apply(e.getValue()));
            sep = ", ";
        }
        return b.append("}").toString();
    }

    private static String str(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
