package lab.fix.partacct;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import lab.engine.block.AcctMode;
import lab.fix.FixUnit;
import lab.fix.Pairing;
import lab.notebook.Fix;
import lab.notebook.Section;

/**
 * part-acct (seed 002_84cddfb167739f27.txt): the partition refcount becomes a {@code percpu_ref}
 * (patches 1-2) and {@code part->in_flight[]} per-cpu counters summed once a tick (patches 3-4);
 * Jens Axboe's objection, that the sum over every possible CPU can eat the gain, is measured over
 * slots x HZ. Every fact of the fix the pairing and the section share is stated here once; the
 * variants are the engine's {@link AcctMode}s.
 */
public final class PartAcct implements FixUnit {
    static final String ID = "part-acct";
    /** The seed's figures (Ming Lei, fio randread over null_blk, dual socket): the first two patches, all four. */
    static final double SEED_TWO = 1.08;
    static final double SEED_FOUR = 1.15;

    public static final Fix FIX = new Fix(ID, "partition refcount and in-flight counters become per-cpu",
            "002_84cddfb167739f27.txt", "all four patches / before, fio randread over null_blk", SEED_FOUR,
            "fio randread over null_blk, dual socket: first two patches ~8%, all four ~15%; Jens Axboe:"
                    + " the per-cpu sum in part_round_stats (up to once per jiffy) can eat the gain");

    /** The variants, in the engine's order: before the series, patches 1-2, all four, today's lazy ticks, accounting off. */
    static final List<String> VARIANTS = Arrays.stream(AcctMode.values()).map(AcctMode::id).toList();
    static final String BASE = AcctMode.ATOMIC.id();
    static final String TWO = AcctMode.PERCPU_REF.id();
    static final String FOUR = AcctMode.PERCPU_INFLIGHT.id();
    static final String LAZY = AcctMode.LAZY_TICKS.id();
    static final String OFF = AcctMode.OFF.id();
    /** Where the bios go: the whole disk (part0) or partition 1, the benchmark's targets. */
    static final List<String> TARGETS = Arrays.stream(lab.engine.bench.PartAcct.Target.values())
            .map(lab.engine.bench.PartAcct.Target::id).toList();
    /** The variant table's point: the seed's era ran HZ 1000; 64 possible CPUs, a dual-socket box. */
    static final String HZ = "1000";
    static final String SLOTS = "64";
    /** The HZ values a kernel is built with that the issue names. */
    static final List<Integer> HZS = List.of(100, 250, 1000);
    /** part_in_flight() sums per tick: a whole-disk bio rounds part0's stats; a partition bio, the partition's and part0's. */
    static final Map<String, Integer> SUMS_PER_TICK = Map.of("disk", 1, "part", 2);
    /** The kernel devices the scenario runs, in the order they are listed. */
    static final List<String> DEVICES = List.of("zram", "loop", "nullb");
    /**
     * The headline's device, first that has a whole-disk fio pair where the toggle takes: null_blk (the seed's device, natively
     * where the host kernel has it, else in the guest VM), loop, zram (bio-based zram accounts whatever queue/iostats says on
     * today's kernels).
     */
    static final List<String> HEADLINE_ORDER = List.of("nullb", "loop", "zram");

    /**
     * At scale: all four patches over the atomic accounting, bios to the whole disk, HZ 1000, on
     * the 2015 dual-socket Xeon class (Haswell-EP); the seed states no job count, so the row
     * predicts at the class's cores. Today's accounting stamps the partition lazily, once per tick.
     */
    @Override
    public lab.analysis.scale.FixScale scale() {
        return new lab.analysis.scale.FixScale(ID, BASE, FOUR, "all four (`percpu-ref+percpu-inflight` / `atomic`)", Map.of("target", "disk"),
                Integer.parseInt(HZ), SEED_FOUR, null, "fio randread over null_blk, dual-socket, jobs unstated (2015)", "haswell-ep-2x16.json",
                "the seed ran on \"a dual-socket environment\" in July 2015: a dual-socket Xeon of that year, Haswell-EP (the"
                        + " E5-2698 v3's published hand-offs are the profile).",
                "the seed states no job count: the class's cores, one job each", LAZY);
    }

    @Override
    public Fix fix() {
        return FIX;
    }

    @Override
    public Pairing pairing() {
        return new PartAcctPairing();
    }

    @Override
    public Section section() {
        return new PartAcctSection();
    }
}
