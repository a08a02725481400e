package lab.engine.blkcg;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import lab.engine.count.SharedLines;
import lab.engine.sync.PercpuRef;
import lab.engine.sync.Rcu;
import lab.engine.sync.Ref;
import lab.engine.sync.RefCount;

/**
 * A cgroup of the blkio controller: {@code struct blkcg} and its {@code cgroup_subsys_state}
 * (block/blk-cgroup.h, include/linux/cgroup-defs.h), a node of a tree under {@link #root}.
 *
 * <p>Its css reference ({@code css->refcnt}) is what a bio's association holds: the cgroup lives
 * until {@link #kill} (rmdir: {@code css_killed}) and the last holder's put, and its release then
 * runs exactly once ({@link #released()}). Which primitive the count is, one shared atomic
 * ({@link RefCount}: 2013's {@code atomic_t}) or per-cpu ({@link PercpuRef}: today's
 * {@code percpu_ref}), is the tree's {@link CssForward}'s choice, made when the tree is built.
 * Callers pass their own per-cpu slot; {@link #child} and {@link #kill} take none and write no
 * slot, so any thread may call them.
 *
 * <p>What the model leaves out: weights, blkgs (the per-queue {@code blkcg_gq} a bio points at
 * today: the association here is the css itself, as in the seed's 3.9 {@code bio->bi_css}),
 * io contexts (per task: their atomics are on no line other tasks share), the other
 * controllers, and the reference a child cgroup holds on its parent ({@code css_release_work_fn}
 * puts it from a workqueue; no model path removes a parent before its children). {@code dm-blkcg-clone} adds weights.
 */
public final class Blkcg {
    /** Where a css count's shared operations are counted. */
    public static final String SITE = "blkcg.css.refcnt";

    private final String name;
    private final Blkcg parent;
    private final CssForward forward;
    private final Ref ref;
    /** The release's runs: 1 once released, never more (checked). */
    private final AtomicInteger released = new AtomicInteger();

    private Blkcg(String name, Blkcg parent, CssForward forward, Rcu rcu, SharedLines lines) {
        this.name = Objects.requireNonNull(name, "name");
        this.parent = parent;
        this.forward = Objects.requireNonNull(forward, "forward");
        Runnable release = this::release;
        this.ref = forward.perCpu() ? new PercpuRef(rcu, release, lines, SITE) : new RefCount(1, release, lines, SITE);
    }

    /**
     * The root of a hierarchy whose css counts are {@code forward}'s kind, per-cpu ones in
     * {@code rcu} (the RCU the callers are online in: theirs per-I/O sections cost no fence).
     */
    public static Blkcg root(CssForward forward, Rcu rcu, SharedLines lines) {
        return new Blkcg("/", null, forward, rcu, lines);
    }

    /** {@code mkdir}: a child cgroup (the model's child holds no reference on its parent; see the class notes). */
    public Blkcg child(String childName, Rcu rcu, SharedLines lines) {
        return new Blkcg(parent == null ? "/" + childName : name + "/" + childName, this, forward, rcu, lines);
    }

    public String name() {
        return name;
    }

    /** The cgroup this one was made in; null for the root. */
    public Blkcg parent() {
        return parent;
    }

    public CssForward forward() {
        return forward;
    }

    /** The css count itself, for the forwarding's code and the tests. */
    Ref ref() {
        return ref;
    }

    /** {@code css_tryget}: a reference unless the count has reached zero. */
    public boolean tryGet(int cpu) {
        return ref.tryGet(cpu);
    }

    /** {@code css_get}: the caller already holds one (a bio the clone comes from). */
    public void get(int cpu) {
        ref.get(cpu);
    }

    /** {@code css_put}. */
    public void put(int cpu) {
        ref.put(cpu);
    }

    /** The seed's probe on the count's line ({@link RefCount#cmpxchgNoop}); only where the count is one atomic. */
    void probe() {
        ((RefCount) ref).cmpxchgNoop();
    }

    /** {@code rmdir}: the cgroup dies; released once the last bio holding it lets go. Once. */
    public void kill() {
        ref.kill();
    }

    /** Whether the release has run. */
    public boolean released() {
        return released.get() > 0;
    }

    /** Whether the count is zero now (tests, after quiescence). */
    public boolean isZero() {
        return ref.isZero();
    }

    private void release() {
        if (released.incrementAndGet() != 1) {
            throw new IllegalStateException("css " + name + " released twice");
        }
    }

    @Override
    public String toString() {
        return "blkcg " + name + " (" + forward.id() + ")";
    }
}
