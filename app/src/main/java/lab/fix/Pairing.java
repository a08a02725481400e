package lab.fix;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * How {@code ./lab pair FIX} runs one fix: its JMH benchmark, a flamegraph per variant at the
 * highest thread count, and its kernel scenario, each writing under the fix's own
 * {@code raw/<fix>/} and {@code flamegraphs/<fix>/}. The notebook then reads only those files.
 */
public interface Pairing {
    /** The run being made: where each part writes, and the sweep it was asked for. */
    record Ctx(Path runDir, Path raw, Path flamegraphs, boolean quick, List<Integer> threads, int rounds,
               long headlineBudgetS, Steps steps, PrintStream progress) {}

    String fixId();

    /** The thread counts the JVM benchmark runs for the sweep asked for, quick or full (a fix may add its seed's). */
    default List<Integer> sweep(List<Integer> threads, boolean quick) {
        return threads;
    }

    /** What the JVM step runs, in words, for {@code raw/steps.tsv}. */
    default String jvmStep(List<Integer> threads, boolean quick) {
        return "JMH over threads " + sweep(threads, quick);
    }

    /** What the flamegraphs step makes, in words, for {@code raw/steps.tsv}. */
    default String flamegraphStep() {
        return "async-profiler at the highest thread count, one per variant (quick: the headline's two)";
    }

    /** The JVM model's benchmark into {@code raw/<fix>/}. */
    void jvm(Ctx c) throws Exception;

    /** One CPU flamegraph per variant at the highest thread count, into {@code flamegraphs/<fix>/}. */
    void flamegraphs(Ctx c) throws Exception;

    /** The kernel scenario's name under kernel-scripts/scenarios/ (run natively as root). */
    String kernelScenario();

    /**
     * The fix's model set against its lab-kernel switch at the guest's CPU per I/O, run after the
     * JVM step where the run has the switch's A/B; null where the fix has none (no switch, or a
     * metric that is not a throughput).
     */
    default GuestModel guestModel() {
        return null;
    }

    /**
     * The fix's model amplified as its lab-kernel switch amplifies the kernel (N operations at the
     * switch's sites), run after {@link #guestModel} where the run has a full A/B (its N sweep);
     * null where the model has no such sites yet.
     */
    default AmplifiedModel amplifiedModel() {
        return null;
    }

    /** The JMH settings of a quick or full run, as manifest.json records them (forks, warm-up, measurement). */
    default String jmhSettings(boolean quick) {
        return JmhOptions.describe(quick);
    }
}
