package lab.fix;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntFunction;
import lab.analysis.parse.LabAb;
import lab.engine.bench.Variants;
import lab.notebook.LabKernelPart;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * A fix's model amplified as its lab-kernel switch amplifies the kernel: the switch's "on" adds N
 * back-to-back operations at its sites to today's code, its "off" runs today's code alone; here
 * the model's today's variant ({@code variant}) runs with the same N operations at the same sites
 * ({@code amp}: the benchmark parameter that places them) against itself without them, and its
 * A/A control, at the guest's own CPU per I/O and vCPUs ({@link GuestModel.Point}), over the N of
 * the run's kernel A/B. The slope of ns per I/O over the operations added per I/O is then set
 * beside the kernel's (issue 34: like for like).
 *
 * <p>Writes {@code raw/<fix>/lab-kernel/}{@value LabKernelPart#AMP}{@code -rR-tT.json} (JMH's)
 * and {@value LabKernelPart#AMP_FACTS} (key: value), read by {@link LabKernelPart}.
 *
 * @param benchmark   the fix's JMH benchmark (an include pattern)
 * @param param       the benchmark's variant parameter
 * @param variant     the model's today's code, the switch's off (and its on without the N operations)
 * @param fixed       the benchmark's other parameters at the seed's point (the base and {@code amp} excluded)
 * @param amp         the parameter that adds the operations
 * @param ampValue    its value for N operations at each site; {@code ampValue(0)} its value for none
 * @param opsPerCount the operations the model adds per I/O per unit of N (sites an I/O passes)
 * @param userSplit   as {@link GuestModel}'s
 * @param what        the amplification in words: what is done where, against what of the kernel's
 */
public record AmplifiedModel(String benchmark, String param, String variant, Map<String, String> fixed, String amp,
                             IntFunction<String> ampValue, int opsPerCount, boolean userSplit, String what) {
    /** What the step runs, in words, for {@code raw/steps.tsv}. */
    public String step() {
        return "the model amplified as the switch amplifies the kernel (" + variant + " with N operations at the switch's sites), at"
                + " the guest's CPU per I/O, over the A/B's N";
    }

    /** Runs the sweep into {@code raw/<fix>/lab-kernel/}: per round, every N with the operations, and none, and the A/A. */
    public void run(Pairing.Ctx c) throws Exception {
        Path dir = c.raw().resolve(LabKernelPart.DIR);
        GuestModel.Point pt = GuestModel.Point.of(c, userSplit);
        SortedSet<Integer> counts = new TreeSet<>();
        LabAb.read(dir).orElseThrow().trials().forEach(t -> counts.add(t.count()));
        List<String> values = new ArrayList<>(List.of(ampValue.apply(0)));
        counts.forEach(n -> values.add(ampValue.apply(n)));
        int rounds = Math.max(GuestModel.MIN_ROUNDS, c.rounds());
        for (int r = 1; r <= rounds; r++) {
            c.progress().printf("lab: %s model amplified at the guest's %d ns per I/O, round %d/%d, N = %s, %d thread(s)%n",
                    c.raw().getFileName(), pt.base(), r, rounds, counts, pt.threads());
            // today's code with N operations and without (one JMH run over amp's values), then the A/A copy without
            ChainedOptionsBuilder o = JmhOptions.of(benchmark, c.quick()).threads(pt.threads()).param(param, variant)
                    .param(amp, values.toArray(String[]::new));
            fixed.forEach((k, v) -> o.param(k, v));
            JmhOptions.run(pt.apply(o, userSplit), dir.resolve(LabKernelPart.AMP + "-r" + r + "-t" + pt.threads() + ".json"));
            ChainedOptionsBuilder aa = JmhOptions.of(benchmark, c.quick()).threads(pt.threads()).param(param, Variants.control(variant))
                    .param(amp, ampValue.apply(0));
            fixed.forEach((k, v) -> aa.param(k, v));
            JmhOptions.run(pt.apply(aa, userSplit), dir.resolve(LabKernelPart.AMP + "-aa-r" + r + "-t" + pt.threads() + ".json"));
        }
        Map<String, String> out = new LinkedHashMap<>();
        out.put("param", param);
        out.put("variant", variant);
        out.put("control", Variants.control(variant));
        out.put("amp", amp);
        out.put("none", ampValue.apply(0));
        List<String> byN = new ArrayList<>();
        counts.forEach(n -> byN.add(n + "=" + ampValue.apply(n)));
        out.put("counts", String.join(" ", byN));
        out.put("ops_per_count", Integer.toString(opsPerCount));
        out.put("threads", Integer.toString(pt.threads()));
        out.put("rounds", Integer.toString(rounds));
        out.put("base_ns", Long.toString(pt.base()));
        out.put("device_ns", Long.toString(pt.device()));
        out.put("user_ns", Long.toString(pt.user()));
        out.put("split", pt.split());
        out.put("what", what);
        List<String> lines = new ArrayList<>();
        out.forEach((k, v) -> lines.add(k + ": " + v));
        Files.write(dir.resolve(LabKernelPart.AMP_FACTS), lines);
    }
}
