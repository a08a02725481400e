package lab.fix.dmblkcgclone;

import static lab.fix.dmblkcgclone.DmBlkcgClone.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.engine.bench.DmBlkcgClone.Config;
import lab.engine.bench.DmBlkcgClone.Result;
import lab.fix.Pairing;
import lab.fix.Rounds;
import lab.fix.dmblkcgclone.DmBlkcgClone.Timing;
import lab.fix.dmblkcgclone.DmBlkcgClone.Weights;
import lab.results.RunDir;

/**
 * dm-blkcg-clone: no JMH benchmark but the engine's in-process experiment
 * {@code lab.engine.bench.DmBlkcgClone} (two cgroups' sequential writers, bs=1M, through a dm stack
 * over one BFQ disk of finite bandwidth; the bandwidth each gets in a window after a ramp), over
 * stacks x paths x weights, both variants interleaved within each round, their order alternating
 * from round to round; then the same at the kernel's bandwidth (the calibrated model) where the
 * kernel side measured one; and the kernel scenario {@code dm-blkcg-clone}. Into the files of
 * {@link DmBlkcgCloneRaw}.
 */
final class DmBlkcgClonePairing implements Pairing {
    private static final double RAW_MIB_PER_SEC = lab.engine.bench.DmBlkcgClone.RAW_MIB_PER_SEC;

    @Override
    public String fixId() {
        return ID;
    }

    @Override
    public String kernelScenario() {
        return ID;
    }

    @Override
    public String jmhSettings(boolean quick) {
        Timing t = timing(quick);
        return "no JMH: the engine's experiment lab.engine.bench.DmBlkcgClone, in process; per measurement " + t.rampMs() + " ms of ramp,"
                + " then a " + t.runMs() + " ms window, sampled every " + lab.engine.bench.DmBlkcgClone.SAMPLE_MS + " ms; the disk "
                + Math.round(RAW_MIB_PER_SEC) + " MiB/s (raw) or the kernel's (calibrated); stacks " + stacks(quick) + ", weights "
                + weights(quick) + "; both variants in every round, their order alternating between rounds";
    }

    @Override
    public String jvmStep(List<Integer> threads, boolean quick) {
        return "the experiment DmBlkcgClone (two writers, one per cgroup; no thread sweep)";
    }

    @Override
    public String flamegraphStep() {
        return "none: the model's threads wait on the disk's bandwidth, a CPU profile says nothing of the fix (flamegraphs/" + ID + "/"
                + DmBlkcgCloneRaw.FLAMEGRAPH_NOTE + ")";
    }

    private static List<String> stacks(boolean quick) {
        return quick ? SHORT_STACKS : STACKS;
    }

    private static List<Weights> weights(boolean quick) {
        return quick ? QUICK_WEIGHTS : WEIGHTS;
    }

    /** Every (stack, path, weights, variant) of the set at {@code mibPerSec}, variants adjacent, in {@code round}'s order. */
    static List<Config> matrix(List<String> stacks, List<Weights> weights, double mibPerSec, Timing t, int round) {
        List<Config> out = new ArrayList<>();
        for (String stack : stacks) {
            for (String path : PATHS) {
                for (Weights w : weights) {
                    for (String v : Rounds.ordered(VARIANTS, round)) {
                        out.add(new Config(v, stack, path, w.a(), w.b(), mibPerSec, t.rampMs(), t.runMs()));
                    }
                }
            }
        }
        return out;
    }

    @Override
    public void jvm(Ctx c) throws Exception {
        Timing t = timing(c.quick());
        DmBlkcgCloneKernel kernel = DmBlkcgCloneKernel.read(RunDir.open(c.runDir()), c.raw().resolve(DmBlkcgCloneRaw.KERNEL));
        DmBlkcgCloneKernel.Bandwidth bw = kernel.bandwidth();
        c.progress().println("lab: " + ID + ": " + (bw == null ? "no calibrated model: " + kernel.whyNoBandwidth()
                : "calibrated disk " + String.format(java.util.Locale.ROOT, "%.1f", bw.mibPerSec()) + " MiB/s, " + bw.source()));
        for (int r = 1; r <= c.rounds(); r++) {
            run(c, r, "model", matrix(stacks(c.quick()), weights(c.quick()), RAW_MIB_PER_SEC, t, r),
                    DmBlkcgCloneRaw.file(c.raw(), DmBlkcgCloneRaw.MODEL, r));
            if (bw != null) {
                run(c, r, "calibrated", matrix(SHORT_STACKS, QUICK_WEIGHTS, bw.mibPerSec(), t, r),
                        DmBlkcgCloneRaw.file(c.raw(), DmBlkcgCloneRaw.CALIBRATED, r));
            }
        }
    }

    private static void run(Ctx c, int round, String what, List<Config> configs, Path file) throws Exception {
        List<Result> results = new ArrayList<>();
        String stack = null;
        for (Config x : configs) {
            if (!x.stack().equals(stack)) {
                stack = x.stack();
                String s = stack;
                c.progress().printf("lab: %s round %d/%d, %s, %s (%d measurements of %d ms)%n", ID, round, c.rounds(), what, stack,
                        configs.stream().filter(y -> y.stack().equals(s)).count(), x.rampMs() + x.runMs());
            }
            results.add(lab.engine.bench.DmBlkcgClone.run(x));
        }
        DmBlkcgCloneRaw.write(file, results);
    }

    /** No flamegraph (see {@link #flamegraphStep}): the note that says why, where the flamegraphs would be. */
    @Override
    public void flamegraphs(Ctx c) throws Exception {
        Files.createDirectories(c.flamegraphs());
        Files.writeString(c.flamegraphs().resolve(DmBlkcgCloneRaw.FLAMEGRAPH_NOTE), "No CPU flamegraph for " + ID + ": " + NO_FLAMEGRAPH
                + "\n");
    }

    /** Why dm-blkcg-clone has no CPU flamegraph: said in the note file and in the notebook. */
    static final String NO_FLAMEGRAPH = "the model's threads (the two writers, the flushers, the thin pool's worker, the disk's hardware"
            + " thread) are parked almost all the time, the disk's bandwidth being a timed wait, so a CPU profile would show the sampler"
            + " and the parking, nothing of where a clone's cgroup is kept or lost. The fix's evidence is counted instead: where the disk"
            + " charged each window's bytes (`charged` in raw/" + ID + "/model-rK.json).";
}
