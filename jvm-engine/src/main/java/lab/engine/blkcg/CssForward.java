package lab.engine.blkcg;

import java.util.Arrays;
import java.util.List;
import lab.engine.block.Bio;

/*
 * How a bio carries its cgroup down a dm stack: the dm-css-ref switch (seed
 * 000_c7038be60bc9096a.txt, Mikulas Patocka and Tejun Heo, 2013).
 *
 *   none            nothing is associated or forwarded: no css operation at all
 *                   (dm before "make dm forward cgroup context")
 *   atomic          the submitter's bio takes a css reference (css_tryget), every
 *                   clone takes one from its source (css_get, bio_clone_blkg_association)
 *                   and drops it as it completes (css_put, bio_disassociate): one shared
 *                   atomic count, get and put, per bio of the stack (the seed's kernel (4))
 *   atomic-cmpxchg  atomic, plus the seed's probe: one no-op cmpxchg on the count's
 *                   line where a clone takes its reference and one where each bio lets
 *                   go (the seed's kernel (5): 23 s -> 40 s)
 *   percpu          atomic's operations on a percpu_ref (Tejun's answer, today's css)
 *
 *
 * How a clone carries the association: the dm-blkcg-clone switch (seed
 * 003_e853cddf414699dc.txt, Mike Snitzer's "transfer source bio's cgroup tags to
 * clone via bio_associate_blkcg()", 2016), on percpu counts as in 2016:
 *
 *   lost            __bio_clone_fast before the fix: the clone starts with no
 *                   association, so an io controller below charges it to the task
 *                   that submits it (the issuer for a synchronous dm-linear; a kernel
 *                   thread, the root, for writeback and dm-thin's worker); the source
 *                   bio keeps its own reference
 *   transfer        the fix: the clone copies the source's association (css_get),
 *                   percpu's operations exactly
 *
 * Each is one subclass, chosen once (forward(id)), as a kernel ops table is.
 * The association lives in Bio.blkcgAssociation (the seed's bio->bi_css).
 */

/** The {@code dm-css-ref} variants: how bios and their clones hold their cgroup's css. */
public abstract class CssForward {
    public static final CssForward NONE = new CssForward("none", false) {
        @Override
        public void associate(Bio bio, Blkcg cg, int cpu) {
        }

        @Override
        public void cloneAssociation(Bio clone, Bio src, int cpu) {
        }

        @Override
        public void disassociate(Bio bio, int cpu) {
        }
    };
    public static final CssForward ATOMIC = new Holding("atomic", false, false);
    public static final CssForward ATOMIC_CMPXCHG = new Holding("atomic-cmpxchg", false, true);
    public static final CssForward PERCPU = new Holding("percpu", true, false);
    public static final CssForward LOST = new Holding("lost", true, false, false);
    public static final CssForward TRANSFER = new Holding("transfer", true, false);

    /** The dm-css-ref variants. */
    private static final List<CssForward> ALL = List.of(NONE, ATOMIC, ATOMIC_CMPXCHG, PERCPU);
    /** The dm-blkcg-clone variants: before the fix, the fix. */
    private static final List<CssForward> CLONE = List.of(LOST, TRANSFER);

    private final String id;
    private final boolean perCpu;

    private CssForward(String id, boolean perCpu) {
        this.id = id;
        this.perCpu = perCpu;
    }

    /** The variant's name: none, atomic, atomic-cmpxchg, percpu. */
    public String id() {
        return id;
    }

    /** Whether the css count is a {@code percpu_ref} (else one shared atomic). */
    boolean perCpu() {
        return perCpu;
    }

    /** Every variant's id, in order: before the forwarding, the seed's two kernels, today. */
    public static List<String> ids() {
        return ALL.stream().map(CssForward::id).toList();
    }

    /** The dm-blkcg-clone variants' ids, in order: lost (before), transfer (the fix). */
    public static List<String> cloneIds() {
        return CLONE.stream().map(CssForward::id).toList();
    }

    /** The variant named {@code id}, of either fix. */
    public static CssForward of(String id) {
        for (List<CssForward> l : List.of(ALL, CLONE)) {
            for (CssForward f : l) {
                if (f.id.equals(id)) {
                    return f;
                }
            }
        }
        throw new IllegalArgumentException("unknown css forwarding '" + id + "' (" + String.join(", ", ids()) + ", "
                + String.join(", ", cloneIds()) + ")");
    }

    /**
     * {@code bio_associate_blkg}: the submitter's own bio joins {@code cg} (the submitting task's
     * cgroup) unless the cgroup is already gone. Thread that owns {@code cpu}.
     */
    public abstract void associate(Bio bio, Blkcg cg, int cpu);

    /** {@code bio_clone_blkg_association}: the clone joins its source's cgroup. Thread that owns {@code cpu}. */
    public abstract void cloneAssociation(Bio clone, Bio src, int cpu);

    /** {@code bio_disassociate_blkg}: the bio is done and lets its cgroup go. Thread that owns {@code cpu}. */
    public abstract void disassociate(Bio bio, int cpu);

    @Override
    public String toString() {
        return id;
    }

    /**
     * atomic, atomic-cmpxchg, percpu, transfer: the same reference operations on the count the tree
     * was built with; lost: the same, but a clone takes no association.
     */
    private static final class Holding extends CssForward {
        private final boolean probe;
        private final boolean copies;

        Holding(String id, boolean perCpu, boolean probe) {
            this(id, perCpu, probe, true);
        }

        Holding(String id, boolean perCpu, boolean probe, boolean copies) {
            super(id, perCpu);
            this.probe = probe;
            this.copies = copies;
        }

        @Override
        public void associate(Bio bio, Blkcg cg, int cpu) {
            if (cg.tryGet(cpu)) {
                bio.blkcgAssociation = cg;
            }
        }

        @Override
        public void cloneAssociation(Bio clone, Bio src, int cpu) {
            if (copies && src.blkcgAssociation instanceof Blkcg cg) {
                cg.get(cpu); // the source holds a reference: css_get, no tryget needed
                if (probe) {
                    cg.probe();
                }
                clone.blkcgAssociation = cg;
            }
        }

        @Override
        public void disassociate(Bio bio, int cpu) {
            if (bio.blkcgAssociation instanceof Blkcg cg) {
                if (probe) {
                    cg.probe();
                }
                bio.blkcgAssociation = null;
                cg.put(cpu);
            }
        }
    }
}
