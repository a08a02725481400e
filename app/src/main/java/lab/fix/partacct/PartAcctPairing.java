package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;

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
 * {@code part-acct}), into the files of {@link PartAcctRaw}: per round and thread count the
 * variant table (every variant x target at the table's HZ and slots) and the crossover grid
 * (percpu-ref and all four x HZ x slots, bios to the partition; quick: HZ 100, 1000 x slots 2,
 * 256), and per round the sum's cost by slots, one thread.
 */
final class PartAcctPairing implements Pairing {

    @Override
    public String fixId() { return ID; }

    @Override
    public String kernelScenario() { return ID; }

    @Override
    public void jvm(Ctx c) throws Exception {
        Rounds.interleave(sweep(c.threads()), c.rounds(), (r, t) -> {
            c.progress().printf("lab: part-acct round %d/%d, %d thread(s)%n", r, c.rounds(), t);
            run(JmhOptions.of(PartAcctRaw.IO, c.quick()).threads(t).param("variant", VARIANTS.toArray(String[]::new))
                    .param("target", TARGETS.toArray(String[]::new)).param("hz", HZ).param("slots", SLOTS),
                    PartAcctRaw.table(c.raw(), r, t));
            run(JmhOptions.of(PartAcctRaw.IO, c.quick()).threads(t).param("variant", TWO, FOUR)
                    .param("target", "part").param("hz", gridHz(c.quick())).param("slots", gridSlots(c.quick())),
                    PartAcctRaw.grid(c.raw(), r, t));
        });
        for (int r = 1; r <= c.rounds(); r++) {
            c.progress().printf("lab: part-acct round %d/%d, part_in_flight() sum, 1 thread%n", r, c.rounds());
            run(JmhOptions.of(PartAcctRaw.SUM, c.quick()).threads(1).param("slots", sumSlots(c.quick())),
                    PartAcctRaw.sum(c.raw(), r));
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
            JmhFlamegraph.record(JmhOptions.of(PartAcctRaw.IO, true).threads(t).param("variant", v).param("target", "disk")
                    .param("hz", HZ).param("slots", SLOTS)
                    .measurementIterations(c.quick() ? 2 : 4).measurementTime(TimeValue.milliseconds(c.quick() ? 300 : 1000)),
                    c.flamegraphs().resolve(v + ".html"));
        }
    }
}
