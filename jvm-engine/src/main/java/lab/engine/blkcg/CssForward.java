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

    private static final List<CssForward> ALL = List.of(NONE, ATOMIC, ATOMIC_CMPXCHG, PERCPU);

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

    /** The variant named {@code id}. */
    public static CssForward of(String id) {
        for (CssForward f : ALL) {
            if (f.id.equals(id)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown css forwarding '" + id + "' (" + String.join(", ", ids()) + ")");
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

    /** atomic, atomic-cmpxchg, percpu: the same reference operations on the count the tree was built with. */
    private static final class Holding extends CssForward {
        private final boolean probe;

        Holding(String id, boolean perCpu, boolean probe) {
            super(id, perCpu);
            this.probe = probe;
        }

        @Override
        public void associate(Bio bio, Blkcg cg, int cpu) {
            if (cg.tryGet(cpu)) {
                bio.blkcgAssociation = cg;
            }
        }

        @Override
        public void cloneAssociation(Bio clone, Bio src, int cpu) {
            if (src.blkcgAssociation instanceof Blkcg cg) {
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
