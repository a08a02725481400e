package lab.fix;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntFunction;
import lab.analysis.parse.LabAb;
import lab.engine.bench.ContentionMain;
import lab.engine.bench.Variants;
import lab.engine.count.SharedLineCounts;
import lab.notebook.KernelRuns;
import lab.notebook.LabKernelPart;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * A fix's model amplified as its lab-kernel switch amplifies the kernel: at each count N the
 * switch's "before" repeats its operation N times back to back at its sites, and its "after" is
 * either today's code without it (dm-css-ref, part-acct, thin-bufio-lock) or an alternative that
 * repeats its own operation N times as well (zram-init-lock's srcu). Here, per N, a "before" cell
 * ({@code variant} with {@code ampValue(N)}) and an "after" cell ({@code afterVariant} with
 * {@code afterAmpValue(N)}), and the A/A of the after at N = 0 against its control, at the
 * guest's own CPU per I/O and vCPUs ({@link GuestModel.Point}), over N = 0 and the N of the run's
 * kernel A/B. The notebook fits Δ(N) = ns(before, N) - ns(after, N) over the operations per I/O
 * at N, N ≥ 1, per round, beside the kernel's (issue 34: like for like).
 *
 * <p>Both sides run in one JMH run a round, over {@code param} ∈ {variant, afterVariant} ×
 * {@code amp} ∈ the values either side takes: exactly the cells needed when the after is the
 * before's own variant (its N = 0 cell), or when both sides take the same value at each N
 * (zram); an after of another variant without operations would also run that variant at every N.
 *
 * <p>The model's operations per I/O per unit of N are the engine's shared-line counter's
 * ({@code counts}: the before's count run at N = 1 and N = 2; their totals' difference, as N = 0
 * may not be a count of the before's own, zram's 1 section) beside the stated {@code opsPerCount}.
 *
 * <p>Writes {@code raw/<fix>/lab-kernel/}{@value LabKernelPart#AMP}{@code -rR-tT.json} (JMH's)
 * and {@value LabKernelPart#AMP_FACTS} (key: value), read by {@link LabKernelPart}.
 *
 * <p>Beside the timed sweep, uncounted, the model's contention counts of the same cells: the
 * sweep's own JMH line once more through lab.engine.bench.ContentionMain ({@value #CONTENTION_RUNS},
 * a round a line), {@value #CONTENTION_ROUNDS} rounds of {@link ContentionMain#IOS_PER_THREAD}
 * I/Os a thread a cell, into {@value LabKernelPart#CONTENTION}{@code -rR.json}; the facts'
 * {@code contention_site} names what of them stands for the kernel's lock.
 *
 * @param benchmark     the fix's JMH benchmark (an include pattern)
 * @param param         the benchmark's variant parameter
 * @param variant       the switch's before: the model's variant the N operations are added to
 * @param afterVariant  the switch's after: the variant Δ(N) is taken against
 * @param fixed         the benchmark's other parameters at the seed's point (the base and {@code amp} excluded)
 * @param amp           the parameter that adds the operations
 * @param ampValue      the before's value at N; {@code ampValue(0)} none
 * @param afterAmpValue the after's value at N (a constant where the switch's after has no operation)
 * @param opsPerCount   the operations the model adds per I/O per unit of N, as stated (sites an I/O passes)
 * @param counts        the before's shared-line counts at N (the engine's count run), or null for none
 * @param userSplit     as {@link GuestModel}'s
 * @param what          the amplification in words: what is done where, against what of the kernel's
 * @param site          the model's counterpart of the kernel's switched lock in the contention counts:
 *                      "SITE SIDE" (a lock's site and side, lab.engine.count.Contention's), or
 *                      {@value #LINES} for an atomic switch (the handoffs of every line)
 */
public record AmplifiedModel(String benchmark, String param, String variant, String afterVariant, Map<String, String> fixed,
                             String amp, IntFunction<String> ampValue, IntFunction<String> afterAmpValue, int opsPerCount,
                             IntFunction<SharedLineCounts> counts, boolean userSplit, String what, String site) {
    /** {@link #site} of an atomic switch: no lock, the handoffs of every line. */
    public static final String LINES = "lines";
    /** The contention runs' file (JmhBatch's format), in the folder the sweep writes. */
    static final String CONTENTION_RUNS = "contention-runs.txt";
    /** Contention rounds, host and guest. */
    static final int CONTENTION_ROUNDS = 3;

    /**
     * A switch whose after is today's code without the operations: {@code variant} with
     * {@code ampValue(0)} at every N.
     */
    public static AmplifiedModel onToday(String benchmark, String param, String variant, Map<String, String> fixed, String amp,
                                         IntFunction<String> ampValue, int opsPerCount, IntFunction<SharedLineCounts> counts,
                                         boolean userSplit, String what, String site) {
        String none = ampValue.apply(0);
        return new AmplifiedModel(benchmark, param, variant, variant, fixed, amp, ampValue, n -> none, opsPerCount, counts,
                userSplit, what, site);
    }

    /** What the step runs, in words, for {@code raw/steps.tsv}. */
    public String step() {
        return "the model amplified as the switch amplifies the kernel (" + variant + " with N operations at the switch's sites against "
                + afterVariant + " at the same N), at the guest's CPU per I/O, over N = 0 and the A/B's N";
    }

    /**
     * JMH's settings in the guest, one JVM a round (JMH forks 0, lab.engine.bench.JmhBatch): 4 x
     * 500 ms warm-up and 5 x 200 ms measured a cell, as refscale.sh's JVM boot has them (under TCG
     * the JIT's compiles take seconds: 2 x 200 ms of warm-up left the first measured iterations
     * 2-4x slow there, measured).
     */
    static final String GUEST_JMH = "-wi 4 -w 500ms -i 5 -r 200ms";
    /** Rounds in the guest: even, as every other round runs N in the other order (one JVM a round: its JIT drifts). */
    static final int GUEST_ROUNDS = 4;
    /**
     * The warm-up run that opens each JVM in the guest, its JSON not read: one cell, the before at
     * the round's first N, 10 x 500 ms. Measured without it (dm-css-ref, TCG, the first
     * {@code ./lab amplify ... --where guest} of the committed run pair-lab-kernel-amp-2core-20261204,
     * stopped and rerun with the warm-up, its files not kept): a JVM's first cell read 1.6-1.9x its
     * neighbours' ns per I/O (166.7 µs at N = 0 where N = 1 read 106.1; 221.4 at N = 128 first, 116.9 at 64).
     */
    static final String GUEST_WARMUP = "warmup";
    static final String GUEST_WARMUP_JMH = "-wi 10 -w 500ms -i 1 -r 100ms";

    /** Runs {@code kernel-scripts/lab-kernel.sh jmh-guest ARG...} with LAB_OUT at the folder given; its exit status. */
    @FunctionalInterface
    public interface GuestLauncher {
        int run(List<String> args, Path out) throws Exception;
    }

    /** What the guest's step runs, in words, for {@code raw/steps.tsv}: on {@code kernel}'s kernel ("lab" or "debian"). */
    public String guestStep(String kernel) {
        return "the same amplified sweep in the guest, on the A/B's vCPUs (" + (kernel.equals("lab") ? "the A/B's lab kernel"
                : "Debian's kernel") + "), " + GUEST_ROUNDS + " rounds of one JVM each";
    }

    /** The model's N: 0 and the kernel A/B's counts. */
    static SortedSet<Integer> counts(Path dir) throws java.io.IOException {
        SortedSet<Integer> ns = new TreeSet<>(List.of(0));
        LabAb.read(dir).orElseThrow().trials().forEach(t -> ns.add(t.count()));
        return ns;
    }

    /** The amp values one round's JMH run takes: the before's and the after's at every N of {@code ns}, in its order, each once. */
    List<String> values(java.util.Collection<Integer> ns) {
        LinkedHashSet<String> v = new LinkedHashSet<>();
        ns.forEach(n -> v.add(ampValue.apply(n)));
        ns.forEach(n -> v.add(afterAmpValue.apply(n)));
        return List.copyOf(v);
    }

    /** Runs the sweep into {@code raw/<fix>/lab-kernel/}: per round, the before and the after at every N, and the A/A. */
    public void run(Pairing.Ctx c) throws Exception {
        Path dir = c.raw().resolve(LabKernelPart.DIR);
        GuestModel.Point pt = GuestModel.Point.of(c, userSplit);
        SortedSet<Integer> ns = counts(dir);
        String[] variants = new LinkedHashSet<>(List.of(variant, afterVariant)).toArray(String[]::new);
        String[] values = values(ns).toArray(String[]::new);
        int rounds = Math.max(GuestModel.MIN_ROUNDS, c.rounds());
        for (int r = 1; r <= rounds; r++) {
            c.progress().printf("lab: %s model amplified at the guest's %d ns per I/O, round %d/%d, N = %s, %d thread(s)%n",
                    c.raw().getFileName(), pt.base(), r, rounds, ns, pt.threads());
            // the before and the after at every N (one JMH run), then the A/A copy of the after at N = 0
            ChainedOptionsBuilder o = JmhOptions.of(benchmark, c.quick()).threads(pt.threads()).param(param, variants)
                    .param(amp, values);
            fixed.forEach((k, v) -> o.param(k, v));
            JmhOptions.run(pt.apply(o, userSplit), dir.resolve(LabKernelPart.AMP + "-r" + r + "-t" + pt.threads() + ".json"));
            ChainedOptionsBuilder aa = JmhOptions.of(benchmark, c.quick()).threads(pt.threads())
                    .param(param, Variants.control(afterVariant)).param(amp, afterAmpValue.apply(0));
            fixed.forEach((k, v) -> aa.param(k, v));
            JmhOptions.run(pt.apply(aa, userSplit), dir.resolve(LabKernelPart.AMP + "-aa-r" + r + "-t" + pt.threads() + ".json"));
        }
        c.progress().printf("lab: %s model's contention counted at the same cells, %d rounds%n", c.raw().getFileName(),
                CONTENTION_ROUNDS);
        contention(dir, ns, pt, ContentionMain.IOS_PER_THREAD);
        pt.writeFacts(dir.resolve(LabKernelPart.AMP_FACTS), facts(ns), rounds, what);
    }

    /**
     * The same sweep in the guest, on the vCPUs the kernel's A/B ran on (TCG here): per round one
     * JVM of the staged runtime runs the before and the after at every N and the A/A
     * ({@link #guestRuns}), into {@code raw/<fix>/lab-kernel/}{@value LabKernelPart#AMP_GUEST}{@code /}
     * with the host's file names, so that the notebook reads it as it reads the host's. The model
     * there pays the guest's price of each operation, the price the kernel's slope is taken at;
     * its CPU per I/O is the same G. {@code kernel}: "lab" (the A/B's own lab kernel: its source
     * from {@code lab-ab.txt}) or "debian" (the JVMs are user space).
     */
    public void runInGuest(Pairing.Ctx c, String kernel, GuestLauncher launch) throws Exception {
        Path dir = c.raw().resolve(LabKernelPart.DIR);
        Path out = dir.resolve(LabKernelPart.AMP_GUEST);
        GuestModel.Point pt = GuestModel.Point.of(c, userSplit);
        SortedSet<Integer> ns = counts(dir);
        if (Files.isDirectory(out)) {
            try (var s = Files.list(out)) {
                for (Path f : s.filter(Files::isRegularFile).toList()) {
                    Files.delete(f);
                }
            }
        }
        Files.createDirectories(out);
        for (int r = 1; r <= GUEST_ROUNDS; r++) {
            Files.write(out.resolve("runs-r" + r + ".txt"), guestRuns(ns, pt, r));
        }
        Files.write(out.resolve(CONTENTION_RUNS), contentionRuns(ns, pt, true));
        List<String> args = new ArrayList<>(List.of("jmh-guest", "--kernel", kernel));
        String source = null;
        if (kernel.equals("lab")) {
            source = labSource(KernelRuns.readEnv(dir.resolve(LabAb.FACTS)).getOrDefault("source", ""));
            args.addAll(List.of("--source", source));
        }
        c.progress().printf("lab: %s model amplified in the guest (%s kernel), %d rounds of N = %s, %d thread(s): one JVM a round%n",
                c.raw().getFileName(), source == null ? kernel : "lab " + source, GUEST_ROUNDS, ns, pt.threads());
        int rc = launch.run(args, out);
        if (rc != 0) {
            throw new java.io.IOException("kernel-scripts/lab-kernel.sh " + String.join(" ", args) + " exited " + rc + " (see "
                    + LabKernelPart.AMP_GUEST + "/console.log, jvm-runs-rR.log)");
        }
        Map<String, String> head = facts(ns);
        head.put("where", "guest: " + (source == null ? "Debian's kernel" : "the lab kernel " + source) + ", one JVM a round"
                + " (JMH forks 0: " + GUEST_JMH + "), opened by a warm-up cell not read (" + GUEST_WARMUP_JMH + "), N ascending in"
                + " odd rounds and descending in even ones");
        pt.writeFacts(out.resolve(LabKernelPart.AMP_FACTS), head, GUEST_ROUNDS, what);
    }

    /** The lab kernel source ("6.1") of lab-ab.txt's {@code source} ("linux-source-6.1 6.1.158-1"). */
    static String labSource(String source) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^linux-source-([0-9]+\\.[0-9]+)\\b").matcher(source.trim());
        if (!m.find()) {
            throw new IllegalArgumentException("lab-ab.txt's source '" + source + "' names no linux-source-V");
        }
        return m.group(1);
    }

    /**
     * The contention rounds on this machine: {@link #contentionRuns} (no warm-up) into
     * {@code dir/}{@value #CONTENTION_RUNS}, run by lab.engine.bench.ContentionMain here,
     * {@code iosPerThread} counted I/Os a thread a cell, each round into
     * {@value LabKernelPart#CONTENTION}{@code -rR.json}.
     */
    void contention(Path dir, SortedSet<Integer> ns, GuestModel.Point pt, long iosPerThread) throws Exception {
        Path f = dir.resolve(CONTENTION_RUNS);
        Files.write(f, contentionRuns(ns, pt, false));
        ContentionMain.runFile(f, dir, iosPerThread);
    }

    /**
     * The contention rounds' lines (lab.engine.bench.ContentionMain's file): the sweep's own line,
     * its cells at every N, a round a line named {@value LabKernelPart#CONTENTION}{@code -rR}; in
     * the guest ({@code warmup}) opened by a warm-up line of the before's first cell, not read
     * (its JVM starts on one vCPU and is widened after it, as the JMH rounds' are).
     */
    List<String> contentionRuns(SortedSet<Integer> ns, GuestModel.Point pt, boolean warmup) {
        List<String> lines = new ArrayList<>();
        if (warmup) {
            lines.add("contention-" + GUEST_WARMUP + " " + jmhArgs(pt, List.of(variant), List.of(ampValue.apply(ns.first())), ""));
        }
        String cells = jmhArgs(pt, new LinkedHashSet<>(List.of(variant, afterVariant)), values(ns), "");
        for (int r = 1; r <= CONTENTION_ROUNDS; r++) {
            lines.add(LabKernelPart.CONTENTION + "-r" + r + " " + cells);
        }
        return lines;
    }

    /**
     * Round {@code r}'s lines of lab.engine.bench.JmhBatch's file: the warm-up ({@link #GUEST_WARMUP}),
     * the before and the after at every N (N ascending in odd rounds, descending in even ones), then
     * the A/A; JSON named as the host's.
     */
    List<String> guestRuns(SortedSet<Integer> ns, GuestModel.Point pt, int r) {
        List<Integer> order = new ArrayList<>(ns);
        if (r % 2 == 0) {
            java.util.Collections.reverse(order);
        }
        List<String> v = values(order);
        String warm = GUEST_WARMUP + "-r" + r + "-t" + pt.threads() + " "
                + jmhArgs(pt, List.of(variant), List.of(ampValue.apply(order.get(0))), GUEST_WARMUP_JMH);
        String sweep = LabKernelPart.AMP + "-r" + r + "-t" + pt.threads() + " "
                + jmhArgs(pt, new LinkedHashSet<>(List.of(variant, afterVariant)), v, GUEST_JMH);
        String aa = LabKernelPart.AMP + "-aa-r" + r + "-t" + pt.threads() + " "
                + jmhArgs(pt, List.of(Variants.control(afterVariant)), List.of(afterAmpValue.apply(0)), GUEST_JMH);
        return List.of(warm, sweep, aa);
    }

    /**
     * JMH's command line for one run in the guest, as JmhBatch takes it (-P name=value, a value a
     * flag: an amp value may hold a comma): the benchmark at {@code variants} × {@code values}, the
     * seed's point, G.
     */
    private String jmhArgs(GuestModel.Point pt, java.util.Collection<String> variants, java.util.Collection<String> values,
                           String iterations) {
        StringBuilder b = new StringBuilder(benchmark).append(" -t ").append(pt.threads());
        variants.forEach(x -> b.append(" -P ").append(param).append("=").append(x));
        values.forEach(x -> b.append(" -P ").append(amp).append("=").append(x));
        new java.util.TreeMap<>(fixed).forEach((k, x) -> b.append(" -P ").append(k).append("=").append(x));
        b.append(" -P baseNs=").append(pt.device());
        if (userSplit) {
            b.append(" -P userNs=").append(pt.user());
        }
        return b.append(" ").append(iterations).toString().strip();
    }

    /**
     * The facts of the sweep over {@code ns} that do not depend on the machine: the cells of each
     * side, the stated and the counted operations per count.
     */
    Map<String, String> facts(SortedSet<Integer> ns) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("param", param);
        out.put("variant", variant);
        out.put("after_variant", afterVariant);
        out.put("control", Variants.control(afterVariant));
        out.put("amp", amp);
        out.put("none", ampValue.apply(0));
        out.put("after_none", afterAmpValue.apply(0));
        out.put("counts", byN(ns, ampValue));
        out.put("after_counts", byN(ns, afterAmpValue));
        out.put("ops_per_count", Integer.toString(opsPerCount));
        out.put("contention_site", site);
        if (counts != null) {
            double one = counts.apply(1).totalPerIo();
            double two = counts.apply(2).totalPerIo();
            out.put("ops_per_io_counted", "1=" + num(one) + " 2=" + num(two));
            out.put("ops_per_count_counted", num(two - one));
        }
        return out;
    }

    private static String byN(SortedSet<Integer> ns, IntFunction<String> value) {
        List<String> byN = new ArrayList<>();
        ns.forEach(n -> {
            if (n >= 1) {
                byN.add(n + "=" + value.apply(n));
            }
        });
        return String.join(" ", byN);
    }

    /** {@code v} to 6 decimals, as Java writes a double (10.0, 2.5). */
    private static String num(double v) {
        return Double.toString(Math.round(v * 1e6) / 1e6);
    }
}
