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
 * <p>Its {@link #weight()} is the proportional-share weight an io scheduler below gives the
 * cgroup's I/O (BFQ's {@code io.bfq.weight}, CFQ's {@code blkio.weight} in the seed of
 * {@code dm-blkcg-clone}). Which cgroup a task is in is {@link #current()}: the model's
 * {@code task_css(current, io_cgrp_id)}, bound for the duration of {@link #runAs}.
 *
 * <p>What the model leaves out: blkgs (the per-queue {@code blkcg_gq} a bio points at
 * today: the association here is the css itself, as in the seed's 3.9 {@code bio->bi_css}),
 * io contexts (per task: their atomics are on no line other tasks share), the other
 * controllers, weights per device ({@code io.bfq.weight}'s "MAJ:MIN W" lines: one weight for
 * every device here), and the reference a child cgroup holds on its parent ({@code css_release_work_fn}
 * puts it from a workqueue; no model path removes a parent before its children).
 */
public final class Blkcg {
    /** Where a css count's shared operations are counted. */
    public static final String SITE = "blkcg.css.refcnt";
    /** {@code BFQ_WEIGHT_LEGACY_DFL}: a new cgroup's weight (cgroup v2's io.bfq.weight default). */
    public static final int DEFAULT_WEIGHT = 100;
    /** The range of a weight: {@code BFQ_MIN_WEIGHT}..{@code BFQ_MAX_WEIGHT}, CFQ's blkio.weight alike (10..1000 there). */
    public static final int MIN_WEIGHT = 1;
    public static final int MAX_WEIGHT = 1000;

    /** {@code current}'s cgroup: bound by {@link #runAs} for the task's run; unbound = the root. */
    private static final ScopedValue<Blkcg> TASK_CSS = ScopedValue.newInstance();

    private final String name;
    private final Blkcg parent;
    private final CssForward forward;
    private final Ref ref;
    /** The release's runs: 1 once released, never more (checked). */
    private final AtomicInteger released = new AtomicInteger();
    /** The weight: written by {@link #setWeight} (a write to the cgroup file), read by the scheduler at each activation. */
    private volatile int weight = DEFAULT_WEIGHT;

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

    /** The cgroup's proportional-share weight now. */
    public int weight() {
        return weight;
    }

    /** {@code echo W > io.bfq.weight}: takes effect as the scheduler next activates the cgroup's queue. */
    public void setWeight(int w) {
        if (w < MIN_WEIGHT || w > MAX_WEIGHT) {
            throw new IllegalArgumentException("blkcg " + name + ": weight " + w + " outside " + MIN_WEIGHT + ".." + MAX_WEIGHT);
        }
        weight = w;
    }

    /**
     * {@code task_css(current, io_cgrp_id)}: the cgroup of the task running this code, or null for
     * the root (a kernel thread: the writeback flusher, dm-thin's pool worker).
     */
    public static Blkcg current() {
        return TASK_CSS.isBound() ? TASK_CSS.get() : null;
    }

    /** {@code echo $pid > cgroup.procs}, for {@code task}'s whole run on this thread. */
    public static void runAs(Blkcg cg, Runnable task) {
        ScopedValue.where(TASK_CSS, Objects.requireNonNull(cg, "cg")).run(task);
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
