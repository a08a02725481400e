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
import lab.engine.bench.Variants;
import lab.engine.count.SharedLineCounts;
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
 */
public record AmplifiedModel(String benchmark, String param, String variant, String afterVariant, Map<String, String> fixed,
                             String amp, IntFunction<String> ampValue, IntFunction<String> afterAmpValue, int opsPerCount,
                             IntFunction<SharedLineCounts> counts, boolean userSplit, String what) {
    /**
     * A switch whose after is today's code without the operations: {@code variant} with
     * {@code ampValue(0)} at every N.
     */
    public static AmplifiedModel onToday(String benchmark, String param, String variant, Map<String, String> fixed, String amp,
                                         IntFunction<String> ampValue, int opsPerCount, IntFunction<SharedLineCounts> counts,
                                         boolean userSplit, String what) {
        String none = ampValue.apply(0);
        return new AmplifiedModel(benchmark, param, variant, variant, fixed, amp, ampValue, n -> none, opsPerCount, counts,
                userSplit, what);
    }

    /** What the step runs, in words, for {@code raw/steps.tsv}. */
    public String step() {
        return "the model amplified as the switch amplifies the kernel (" + variant + " with N operations at the switch's sites against "
                + afterVariant + " at the same N), at the guest's CPU per I/O, over N = 0 and the A/B's N";
    }

    /** The model's N: 0 and the kernel A/B's counts. */
    static SortedSet<Integer> counts(Path dir) throws java.io.IOException {
        SortedSet<Integer> ns = new TreeSet<>(List.of(0));
        LabAb.read(dir).orElseThrow().trials().forEach(t -> ns.add(t.count()));
        return ns;
    }

    /** The amp values one round's JMH run takes: the before's and the after's at every N, each once. */
    List<String> values(SortedSet<Integer> ns) {
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
        pt.writeFacts(dir.resolve(LabKernelPart.AMP_FACTS), facts(ns), rounds, what);
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
