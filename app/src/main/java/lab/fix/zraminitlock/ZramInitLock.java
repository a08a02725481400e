package lab.fix.zraminitlock;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import lab.engine.bench.Variants;
import lab.engine.load.DataPattern;
import lab.engine.zram.GuardKind;
import lab.fix.FixUnit;
import lab.fix.Pairing;
import lab.notebook.Fix;
import lab.notebook.Section;

/**
 * zram-init-lock (seed 001_8702db15985e6798.txt): zram drops {@code init_lock}, an rw_semaphore
 * taken with {@code down_read} on every I/O, from the I/O path; the thread weighs SRCU and an
 * atomic meta refcount against it. The variants are the engine's {@link GuardKind}s; every fact
 * the pairing and the section share is stated here once.
 */
public final class ZramInitLock implements FixUnit {
    static final String ID = "zram-init-lock";
    /** The seed's measurement: SRCU vs rwsem, %, perf stat -r 10, 4 CPUs, compressible data. */
    static final Map<String, Double> SEED_PCT = Map.of("randread", -0.63, "randwrite", 1.24, "randrw", 2.3);

    public static final Fix FIX = new Fix(ID, "zram drops init_lock (down_read per I/O) from the I/O path",
            "001_8702db15985e6798.txt", "SRCU / rwsem throughput at 4 workers (randrw)", 1 + SEED_PCT.get("randrw") / 100,
            "fio randread / randwrite / randrw on 1 GiB zram, 4 CPUs, perf stat -r 10: SRCU vs rwsem"
                    + " -0.63% (randread), +1.24% (randwrite), +2.3% (randrw): \"marginal\"");

    /** The meta guards, in the engine's order: rwsem (before), SRCU, the atomic meta ref, none (today). */
    static final List<String> GUARDS = Arrays.stream(GuardKind.values()).map(GuardKind::cliName).toList();
    static final String BASE = GuardKind.RWSEM.cliName();
    static final String SRCU = GuardKind.SRCU.cliName();
    static final String NONE = GuardKind.NONE.cliName();
    /** The seed's rw modes, one job file each (examples/zram-init-lock-RW.fio). */
    static final List<String> RWS = List.of("randread", "randwrite", "randrw");
    /**
     * The seed's data pattern, the headline's and the seed-against-model table's: zero pages, as
     * the seed ran ({@code scramble_buffers=0, zero_buffers}, examples/zram-init-lock-*.fio):
     * zram keeps them as same-filled pages without compressing them, so the guard is as large a
     * share of an I/O as it gets. The table has compressible50 and random beside it.
     */
    static final String SEED_PATTERN = DataPattern.ZERO.id();
    /** The headline's rw mode: randrw, where the seed saw the most (+2.3%). */
    static final String SEED_RW = "randrw";
    /** The A/A control: rwsem against a copy of itself, measured like every guard. */
    static final String CONTROL = Variants.control(GuardKind.RWSEM.cliName());
    /** The seed's worker count (4 CPUs). */
    static final int SEED_WORKERS = 4;

    /**
     * At scale: SRCU over rwsem on the seed's randrw of zero pages at its 4 CPUs, on a 4-core
     * Haswell desktop (the seed's "4 CPU real machine" at 3.2 GHz, January 2015); today's zram has no guard.
     */
    @Override
    public lab.analysis.scale.FixScale scale() {
        return new lab.analysis.scale.FixScale(ID, BASE, SRCU, "SRCU / rwsem, randrw, zero pages", Map.of("rw", SEED_RW, "pattern", SEED_PATTERN),
                0, FIX.seedValue(), SEED_WORKERS, "fio on 4 CPUs (2015)", "haswell-client-4c.json",
                "the seed's \"4 CPU real machine\" ran at 3.2 GHz (its perf stat) in January 2015: a single-socket four-core Intel"
                        + " desktop of the Haswell generation (the i5-4590's published hand-offs are the profile).", null, NONE);
    }

    @Override
    public Fix fix() {
        return FIX;
    }

    @Override
    public Pairing pairing() {
        return new ZramInitLockPairing();
    }

    @Override
    public Section section() {
        return new ZramInitLockSection();
    }
}
