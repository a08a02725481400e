package lab.engine.bench;

import java.util.concurrent.TimeUnit;
import lab.engine.block.DiskStats;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/*
 * part-acct: the cost of one part_in_flight() after patch 4/4, alone: a pass
 * over every possible CPU's disk_stats, both in_flight fields of each
 * (lab.engine.block.DiskStats.inFlightSum). Jens Axboe's concern is this
 * times HZ (times two for I/O to a partition: part and part0, each once a
 * tick); the part-acct notebook multiplies it out and sets it beside the gain
 * the per-cpu counters buy per I/O.
 *
 * One thread, slots no one writes meanwhile: the lines stay in this core's
 * cache, so this is the sum's floor. On a machine whose other CPUs are doing
 * I/O, their copies are dirty in their caches and each costs a miss; the
 * PartAcct benchmark measures the sum in that situation, for the slots its
 * threads write.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PartInFlightSum {

    @State(Scope.Benchmark)
    public static class Stats {
        @Param({"2", "4", "8", "16", "32", "64", "128", "256"})
        public int slots;

        DiskStats stats;

        @Setup(Level.Trial)
        public void setUp() {
            stats = new DiskStats(slots);
        }
    }

    @Benchmark
    public long sum(Stats s) {
        return s.stats.inFlightSum();
    }
}
