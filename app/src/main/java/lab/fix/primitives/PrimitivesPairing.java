package lab.fix.primitives;

import lab.fix.JmhFlamegraph;
import lab.fix.JmhOptions;
import lab.fix.Pairing;
import lab.fix.Rounds;
import java.util.List;
import lab.engine.sync.PrimitiveKind;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The lab's calibration entry: the sync primitives benchmark on the JVM side (JMH, interleaved
 * rounds over the thread sweep), and today's real zram as the per-I/O cost floor on the kernel
 * side (scenario {@code zram-floor}).
 */
final class PrimitivesPairing implements Pairing {
    /** The primitives, one flamegraph each: the engine's {@link PrimitiveKind}s. */
    static final List<String> VARIANTS = PrimitiveKind.ids();

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
     * One flamegraph per primitive at the highest thread count: {@code flamegraphs/primitives/<primitive>.html};
     * a quick run the seeds' contrast alone, the shared atomic against the per-cpu reference.
     */
    @Override
    public void flamegraphs(Ctx c) throws Exception {
        int t = c.threads().stream().mapToInt(Integer::intValue).max().orElse(1);
        for (String v : JmhFlamegraph.variants(c.quick(), VARIANTS,
                lab.engine.sync.PrimitiveKind.ATOMIC_REFCOUNT.id(), lab.engine.sync.PrimitiveKind.PERCPU_REF.id())) {
            JmhFlamegraph.record(new OptionsBuilder()
                    .include(PrimitivesBench.BENCHMARK)
                    .param("primitive", v)
                    .threads(t).forks(1)
                    .warmupIterations(1).warmupTime(TimeValue.milliseconds(300))
                    .measurementIterations(c.quick() ? 2 : 4).measurementTime(TimeValue.milliseconds(c.quick() ? 300 : 1000))
                    .jvmArgs("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow")
                    .verbosity(VerboseMode.SILENT), c.flamegraphs().resolve(v + ".html"));
        }
    }
}
