package lab.fix.thinbufiolock;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.engine.bench.Variants;
import lab.engine.bufio.BufioLocking;
import lab.fix.FixUnit;
import lab.fix.Pairing;
import lab.notebook.Fix;
import lab.notebook.Section;

/**
 * thin-bufio-lock (seed 004_779fcd164b83d477.txt): dm-thin walks its metadata btrees through
 * dm-bufio, whose client lock was a mutex taken for every node a lookup reads; Mikulas Patocka's
 * series (October 2022) made it an rw_semaphore (patch 2) and let dm-thin take it once for a whole
 * walk (patches 1 and 4): 286 + 286 MiB/s -> 442 + 442 MiB/s on 12 psync jobs over a fully
 * provisioned thin volume. The 2023 rework replaced the one lock with rw locks striped over
 * cache-aligned trees. The variants are the engine's {@link BufioLocking}s; every fact the
 * pairing and the section share is stated here once.
 */
public final class ThinBufioLock implements FixUnit {
    static final String ID = "thin-bufio-lock";
    /** The seed's figure: 442 MiB/s over 286 MiB/s (reads and writes alike). */
    static final double SEED_SPEEDUP = 442.0 / 286.0;
    /** The seed's jobs: fio numjobs=12 (its machine's cores are not stated). */
    static final int SEED_JOBS = 12;

    public static final Fix FIX = new Fix(ID, "dm-bufio's client lock: mutex -> rw_semaphore, taken once per btree walk",
            "004_779fcd164b83d477.txt", "throughput after / before, fio randrw psync 12 jobs on a thin volume", 1.55,
            "32 GiB pool on emulated pmem, 16 GiB thin volume written first; fio psync randrw 4k direct"
                    + " numjobs=12: 286 + 286 MiB/s -> 442 + 442 MiB/s (1.55x)");

    /** The variants, in the engine's order: the mutex (before), the rw_semaphore per node, once per walk (the seed's fix), striped (2023). */
    static final List<String> VARIANTS = BufioLocking.ids();
    static final String MUTEX = BufioLocking.MUTEX.id();
    static final String RWSEM = BufioLocking.RWSEM.id();
    static final String WALK = BufioLocking.RWSEM_WALK.id();
    static final String STRIPED = BufioLocking.STRIPED.id();
    /** The A/A control: the mutex, the headline's base, against a copy of itself. */
    static final String CONTROL = Variants.control(MUTEX);

    static final String THIN = "thin";
    static final String LINEAR = "linear";
    /** The metadata cache: the whole btree cached (the seed's case: a provisioned volume, the cache's default size), or fewer buffers than the tree. */
    static final String WHOLE = "whole";
    static final String SMALL = "small";
    static final List<String> CACHES = List.of(WHOLE, SMALL);

    /** A variant's JMH params on the thin volume with {@code cache}. */
    static Map<String, String> key(String variant, String cache) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("variant", variant);
        m.put("target", THIN);
        m.put("cache", cache);
        return m;
    }

    /** The baseline's JMH params: dm-linear over the same data disk (no btree: the variant and the cache do nothing there). */
    static Map<String, String> linear() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("variant", MUTEX);
        m.put("target", LINEAR);
        m.put("cache", WHOLE);
        return m;
    }

    /** The counts' point of a target and cache. */
    static Map<String, String> point(String target, String cache) {
        return Map.of("target", target, "cache", cache);
    }

    /**
     * At scale: the seed's fix (the rwsem taken once per walk) over the mutex, a thin volume with
     * the whole btree cached, at the seed's 12 jobs. The seed names no machine, so there is no
     * class to build a profile of. Today's dm-bufio (6.4 on) locks per tree stripe.
     */
    @Override
    public lab.analysis.scale.FixScale scale() {
        return new lab.analysis.scale.FixScale(ID, MUTEX, WALK, "`rwsem-walk` / `mutex`", point(THIN, WHOLE), 0, SEED_SPEEDUP, SEED_JOBS,
                "12 psync jobs on emulated pmem (2022)", null,
                "the seed names neither its processor nor its cores (12 fio jobs on pmem emulated with memmap), so no class"
                        + " can be read from it and no published profile stands for its machine.", null, STRIPED);
    }

    @Override
    public Fix fix() {
        return FIX;
    }

    @Override
    public Pairing pairing() {
        return new ThinBufioLockPairing();
    }

    @Override
    public Section section() {
        return new ThinBufioLockSection();
    }
}
