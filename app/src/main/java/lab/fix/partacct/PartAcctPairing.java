package lab.fix.partacct;

import lab.fix.JmhFlamegraph;
import lab.fix.JmhOptions;
import lab.fix.Pairing;
import lab.fix.Rounds;
import java.nio.file.Path;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * part-acct: the JMH benchmark {@code lab.engine.bench.PartAcct} (4k randread bios over NullBlk
 * through the partition accounting) and {@code lab.engine.bench.PartInFlightSum} (one
 * {@code part_in_flight()} sum), and today's kernel with {@code queue/iostats} 1 and 0 (scenario
 * {@code part-acct}). Per round and thread count, into {@code raw/part-acct/}:
 *
 * <ul>
 *   <li>{@code part-acct-rR-tT.json}: every variant x target (partition, whole disk) at HZ 1000,
 *       64 slots: the variant table;</li>
 *   <li>{@code part-acct-grid-rR-tT.json}: percpu-ref and all four patches x HZ x slots, bios to
 *       the partition: where the per-tick sum eats the gain (quick: HZ 100, 1000 x slots 2, 256);</li>
 * </ul>
 * and per round {@code part-acct-sum-rR.json}: ns per sum over the slot counts, one thread.
 */
final class PartAcctPairing implements Pairing {
    static final String IO = "lab\\.engine\\.bench\\.PartAcct\\.io";
    static final String SUM = "lab\\.engine\\.bench\\.PartInFlightSum\\.sum";
    /** Before the series; patches 1-2; all four; today's lazy update_io_ticks; accounting off. */
    static final String[] VARIANTS = {"atomic", "percpu-ref", "percpu-ref+percpu-inflight", "lazy-ticks", "iostats=0"};
    static final String[] TARGETS = {"part", "disk"};
    /** The variant table's point: the seed's era ran HZ 1000; 64 possible CPUs, a dual-socket box. */
    static final String TABLE_HZ = "1000";
    static final String TABLE_SLOTS = "64";

    @Override
    public String fixId() { return "part-acct"; }

    @Override
    public String kernelScenario() { return "part-acct"; }

    @Override
    public void jvm(Ctx c) throws Exception {
        Rounds.interleave(sweep(c.threads()), c.rounds(), (r, t) -> {
            c.progress().printf("lab: part-acct round %d/%d, %d thread(s)%n", r, c.rounds(), t);
            run(JmhOptions.of(IO, c.quick()).threads(t).param("variant", VARIANTS).param("target", TARGETS)
                    .param("hz", TABLE_HZ).param("slots", TABLE_SLOTS), c.raw().resolve("part-acct-r" + r + "-t" + t + ".json"));
            run(JmhOptions.of(IO, c.quick()).threads(t).param("variant", "percpu-ref", "percpu-ref+percpu-inflight")
                    .param("target", "part").param("hz", gridHz(c.quick())).param("slots", gridSlots(c.quick())),
                    c.raw().resolve("part-acct-grid-r" + r + "-t" + t + ".json"));
        });
        for (int r = 1; r <= c.rounds(); r++) {
            c.progress().printf("lab: part-acct round %d/%d, part_in_flight() sum, 1 thread%n", r, c.rounds());
            run(JmhOptions.of(SUM, c.quick()).threads(1).param("slots", sumSlots(c.quick())),
                    c.raw().resolve("part-acct-sum-r" + r + ".json"));
        }
    }

    static String[] gridHz(boolean quick) {
        return quick ? new String[] {"100", "1000"} : new String[] {"100", "250", "1000"};
    }

    static String[] gridSlots(boolean quick) {
        return quick ? new String[] {"2", "256"} : new String[] {"2", "16", "64", "256"};
    }

    static String[] sumSlots(boolean quick) {
        return quick ? new String[] {"2", "16", "64", "256"} : new String[] {"2", "4", "8", "16", "32", "64", "128", "256"};
    }

    private static void run(ChainedOptionsBuilder o, Path out) throws Exception {
        new Runner(JmhOptions.toJson(o, out).build()).run();
    }

    /** One flamegraph per variant at the highest thread count, bios to the whole disk, HZ 1000, 64 slots. */
    @Override
    public void flamegraphs(Ctx c) throws Exception {
        int t = c.threads().stream().mapToInt(Integer::intValue).max().orElse(1);
        for (String v : VARIANTS) {
            JmhFlamegraph.record(JmhOptions.of(IO, true).threads(t).param("variant", v).param("target", "disk")
                    .param("hz", TABLE_HZ).param("slots", TABLE_SLOTS)
                    .measurementIterations(c.quick() ? 2 : 4).measurementTime(TimeValue.milliseconds(c.quick() ? 300 : 1000)),
                    c.flamegraphs().resolve(v + ".html"));
        }
    }
}
