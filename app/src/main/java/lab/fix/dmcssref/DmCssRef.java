package lab.fix.dmcssref;

import java.util.List;
import java.util.Map;
import lab.engine.blkcg.CssForward;
import lab.engine.bench.Variants;
import lab.fix.FixUnit;
import lab.fix.Pairing;
import lab.jobspec.Inject;
import lab.notebook.Fix;
import lab.notebook.Section;

/**
 * dm-css-ref (seed 000_c7038be60bc9096a.txt): dm forwards a bio's cgroup to its clones, and the
 * css reference each clone takes is per-cpu (Tejun Heo's answer; a {@code percpu_ref} today),
 * never a shared atomic (Mikulas Patocka's measurement: one no-op cmpxchg on it per clone and
 * per put, 23 s -> 40 s). The variants are the engine's {@link CssForward}s; every fact the
 * pairing and the section share is stated here once.
 */
public final class DmCssRef implements FixUnit {
    static final String ID = "dm-css-ref";
    /** The seed's figure: 40 s / 23 s with the probe (kernel (5) over (4)). */
    static final double SEED_SLOWDOWN = 40.0 / 23.0;

    public static final Fix FIX = new Fix(ID, "dm clones take the blkcg css reference per-cpu, never as a shared atomic",
            "000_c7038be60bc9096a.txt", "slow-down from one extra atomic per clone (time after / time before)", 1.74,
            "4 GiB ramdisk, 5 nested dm-linear; fio randrw bs=512 direct, 12 jobs on 12 cores: 23 s -> 40 s"
                    + " with one extra cmpxchg on the css refcount in bio_clone_context (1.74x slower)");

    /** The variants, in the engine's order: before forwarding, the seed's kernels (4) and (5), today. */
    static final List<String> VARIANTS = CssForward.ids();
    static final String NONE = CssForward.NONE.id();
    static final String ATOMIC = CssForward.ATOMIC.id();
    static final String CMPXCHG = CssForward.ATOMIC_CMPXCHG.id();
    static final String PERCPU = CssForward.PERCPU.id();
    /** The A/A control: today's per-cpu css against a copy of itself. */
    static final String CONTROL = Variants.control(PERCPU);
    /** The seed's stack: 5 nested dm-linear devices; the depth sweep runs 0 (the ramdisk alone) to it. */
    static final int SEED_DEPTH = 5;
    static final List<Integer> DEPTHS = List.of(0, 1, 2, 3, 4, 5);
    /** The seed's workers: 12 fio jobs on 12 cores. */
    static final int SEED_WORKERS = 12;
    /** The seed's experiment by hand, as the job key writes it: a no-op cmpxchg at each clone and each clone's completion. */
    static final String SEED_INJECT = Inject.format(List.of(new Inject(Inject.Stage.CLONE, Inject.Kind.CMPXCHG, 1),
            new Inject(Inject.Stage.END_IO, Inject.Kind.CMPXCHG, 1)));
    /** A variant's JMH params at {@code depth}, no injection. */
    static Map<String, String> key(String variant, int depth) {
        return Map.of("variant", variant, "depth", Integer.toString(depth), "inject", "none", "device", "ram");
    }

    /** The injected experiment's JMH params at {@code depth} (variant none). */
    static Map<String, String> injected(int depth) {
        return Map.of("variant", NONE, "depth", Integer.toString(depth), "inject", SEED_INJECT, "device", "ram");
    }

    /**
     * At scale: the seed's contrast ({@code atomic} over {@code atomic-cmpxchg}) at its 12 jobs, on
     * the 2013 dual-socket Xeon class ("12-core machine": two sockets of six cores, the shape of
     * that year's Westmere-EP and Sandy/Ivy Bridge-EP servers); today's css is per-cpu.
     */
    @Override
    public lab.analysis.scale.FixScale scale() {
        return new lab.analysis.scale.FixScale(ID, CMPXCHG, ATOMIC, "`atomic` / `atomic-cmpxchg` (kernel (4) over (5))",
                Map.of("depth", Integer.toString(SEED_DEPTH), "inject", "none"), 0, SEED_SLOWDOWN, SEED_WORKERS,
                "12 fio jobs on a 12-core machine (2013)", "westmere-ep-2x6.json",
                "the seed ran on a \"12-core machine\" in April 2013: a dual-socket Xeon of two six-core sockets, the class's shape"
                        + " (Westmere-EP X5650, whose published hand-offs are the profile).", null, PERCPU);
    }

    @Override
    public Fix fix() {
        return FIX;
    }

    @Override
    public Pairing pairing() {
        return new DmCssRefPairing();
    }

    @Override
    public Section section() {
        return new DmCssRefSection();
    }
}
