package lab.fix.zraminitlock;

import static lab.fix.zraminitlock.ZramInitLock.*;

import lab.fix.JmhFlamegraph;
import lab.fix.JmhOptions;
import lab.fix.Pairing;
import lab.fix.Rounds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import lab.engine.load.DataPattern;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * zram-init-lock: the JMH benchmark {@code lab.engine.bench.ZramInitLock} over guard x rw x
 * pattern x threads (the sweep always includes 4, the seed's worker count), and today's real
 * zram through the bridge and fio (scenario {@code zram-init-lock}).
 *
 * <p>Quick: patterns compressible50 (the headline's) and zero (the seed's own, where the guard is most of
 * an op), LZO-RLE, short iterations. Full: every pattern, LZO-RLE, and LZ4 on compressible50.
 */
final class ZramInitLockPairing implements Pairing {

    @Override
    public String fixId() { return ID; }

    @Override
    public String kernelScenario() { return ID; }

    /** The thread sweep plus the seed's 4 workers. */
    @Override
    public List<Integer> sweep(List<Integer> threads) {
        TreeSet<Integer> t = new TreeSet<>(threads);
        t.add(SEED_WORKERS);
        return new ArrayList<>(t);
    }

    @Override
    public void jvm(Ctx c) throws Exception {
        Rounds.interleave(sweep(c.threads()), c.rounds(), (r, t) -> {
            c.progress().printf("lab: zram-init-lock round %d/%d, %d thread(s)%n", r, c.rounds(), t);
            run(c, t, ZramInitLockRaw.lzo(c.raw(), r, t),
                    c.quick() ? new String[] {HEADLINE_PATTERN, DataPattern.ZERO.id()} : DataPattern.ids().toArray(String[]::new),
                    new String[] {"lzo-rle"});
            if (!c.quick()) {
                run(c, t, ZramInitLockRaw.lz4(c.raw(), r, t), new String[] {HEADLINE_PATTERN},
                        new String[] {"lz4"});
            }
        });
    }

    private static void run(Ctx c, int threads, Path out, String[] patterns, String[] compressors) throws Exception {
        ChainedOptionsBuilder o = JmhOptions.of(ZramInitLockRaw.BENCHMARK, c.quick()).threads(threads)
                .param("guard", GUARDS.toArray(String[]::new)).param("rw", RWS.toArray(String[]::new))
                .param("pattern", patterns).param("compressor", compressors);
        new Runner(JmhOptions.toJson(o, out).build()).run();
    }

    /** One flamegraph per guard at the highest thread count, on the headline's job (randrw, compressible50). */
    @Override
    public void flamegraphs(Ctx c) throws Exception {
        int t = sweep(c.threads()).getLast();
        for (String g : GUARDS) {
            JmhFlamegraph.record(JmhOptions.of(ZramInitLockRaw.BENCHMARK, true).threads(t).param("guard", g).param("rw", "randrw")
                    .param("pattern", HEADLINE_PATTERN)
                    .measurementIterations(c.quick() ? 2 : 4).measurementTime(TimeValue.milliseconds(c.quick() ? 300 : 1000)),
                    c.flamegraphs().resolve(g + ".html"));
        }
    }
}
