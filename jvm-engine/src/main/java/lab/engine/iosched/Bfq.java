package lab.engine.iosched;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import lab.engine.blkcg.Blkcg;
import lab.engine.block.Bio;

/*
 * The Budget Fair Queueing I/O scheduler's proportional share among cgroups
 * (block/bfq-iosched.c, bfq-wf2q.c, bfq-cgroup.c), for a device that serves
 * one request at a time ({@link RequestQueue}).
 *
 * insert(bio, group)            bfq_insert_request: the group's queue gets the
 *                               bio; an idle group is activated: weight taken
 *                               from its cgroup, start = max(V, finish),
 *                               finish = start + max_budget / weight
 * dispatch(now)                 bfq_select_queue: the group in service keeps
 *                               the device while its next bio fits its budget;
 *                               empty, it keeps it for slice_idle after its
 *                               last completion (bfq_arm_slice_timer: a sync
 *                               writer's next bio is about to come). It
 *                               expires when its next bio does not fit (still
 *                               busy: BFQQE_BUDGET_EXHAUSTED) or the idle window
 *                               passes empty (no longer busy), charged what it
 *                               was served (finish = start + served / weight);
 *                               the active group of least finish is served
 *                               next, V = its start
 * completed(now)                bfq_completed_request: the device is free;
 *                               an empty group in service starts idling
 *
 * Where the model simplifies BFQ: one queue per group (BFQ has one per task
 * in a group, scheduled by the same rule one level down: with the model's one
 * writer per cgroup the same thing); start-time fair queueing over budgets,
 * without WF2Q+'s eligibility test (with two or three groups it changes which
 * of two tied groups goes first, not the shares); a fixed max_budget in
 * sectors, service charged in sectors (BFQ charges time to seeky queues and
 * autotunes max_budget; the lab's writers are sequential, bs=1M); no
 * budget timeout, no weight raising, no in-group or hierarchical weights
 * (every group is a child of the root, as the seed's two containers).
 * Not thread safe: the RequestQueue's lock guards it, as bfqd->lock does.
 */

/** BFQ's proportional share among the cgroups whose I/O reaches one device. */
public final class Bfq {
    /** Virtual time per sector at weight 1: {@link Blkcg#MAX_WEIGHT}, so that a sector at the highest weight costs 1. */
    static final long WEIGHT_SCALE = Blkcg.MAX_WEIGHT;

    private final long maxBudget;
    private final long sliceIdleNs;
    private final BfqGroup root = new BfqGroup(null);
    private final Map<Blkcg, BfqGroup> groups = new IdentityHashMap<>();
    /** Groups on the service tree; a handful, scanned for the least finish. */
    private final List<BfqGroup> active = new ArrayList<>();
    private BfqGroup inService;
    /** Whether a dispatched request of {@link #inService} is at the device. */
    private boolean inDriver;
    /** {@code st->vtime}. */
    private long vtime;
    /** Until when the empty group in service keeps the device; 0: not idling. */
    private long idleUntil;

    /**
     * @param maxBudgetSectors {@code bfqd->bfq_max_budget}: sectors a group is served in one slot
     * @param sliceIdleNs      {@code bfqd->bfq_slice_idle}: how long an empty group in service keeps the device
     */
    public Bfq(long maxBudgetSectors, long sliceIdleNs) {
        if (maxBudgetSectors < 1 || sliceIdleNs < 0) {
            throw new IllegalArgumentException("bfq: max_budget " + maxBudgetSectors + ", slice_idle " + sliceIdleNs);
        }
        this.maxBudget = maxBudgetSectors;
        this.sliceIdleNs = sliceIdleNs;
    }

    /** {@code bfq_bio_bfqg}: the group of {@code cg} (null: the root), made on its first I/O. */
    BfqGroup group(Blkcg cg) {
        return cg == null ? root : groups.computeIfAbsent(cg, BfqGroup::new);
    }

    /** {@code bfq_insert_request}: queues {@code bio} in {@code g}, activating the group if it was idle. */
    void insert(Bio bio, BfqGroup g) {
        g.fifo.addLast(bio);
        if (!g.active) {
            g.weight = g.weightNow();
            g.start = Math.max(vtime, g.finish);
            g.finish = g.start + maxBudget * WEIGHT_SCALE / g.weight;
            g.served = 0;
            g.active = true;
            active.add(g);
        }
    }

    /**
     * {@code bfq_dispatch_request}: the next bio for the device at time {@code now}, or null:
     * nothing queued, the device busy, or the group in service idling ({@link #idleUntil}).
     */
    Bio dispatch(long now) {
        if (inDriver) {
            return null;
        }
        BfqGroup g = inService;
        if (g != null) {
            Bio next = g.fifo.peekFirst();
            if (next != null) {
                if (g.served == 0 || g.served + next.sectors() <= maxBudget) {
                    return take(g);
                }
            } else if (idleUntil != 0 && now < idleUntil) {
                return null;
            }
            expire(g); // budget exhausted (its next bio stays queued: the group stays busy), or idle too long
        }
        g = select();
        if (g == null) {
            return null;
        }
        return take(g);
    }

    /** {@code bfq_completed_request}: the device finished the bio it was given; an empty group in service idles. */
    void completed(long now) {
        inDriver = false;
        BfqGroup g = inService;
        if (g != null && g.fifo.isEmpty()) {
            idleUntil = now + sliceIdleNs; // bfq_arm_slice_timer: its next bio decides, budget left or not
        }
    }

    /** Until when the device is kept idle for the group in service (0: it is not); for the device's wait. */
    long idleUntil() {
        return inService != null && inService.fifo.isEmpty() ? idleUntil : 0;
    }

    /** The group in service; null when none. */
    BfqGroup inService() {
        return inService;
    }

    /** Every group that saw I/O, the root first. */
    List<BfqGroup> groups() {
        List<BfqGroup> all = new ArrayList<>();
        all.add(root);
        all.addAll(groups.values());
        return all;
    }

    private Bio take(BfqGroup g) {
        Bio bio = g.fifo.pollFirst();
        g.served += bio.sectors();
        g.bios++;
        g.bytes += bio.size;
        if (bio.blkcgAssociation != null) {
            g.tagged++;
        }
        inDriver = true;
        idleUntil = 0;
        return bio;
    }

    /** {@code bfq_bfqq_expire}: the group in service leaves it, charged what it was served. */
    private void expire(BfqGroup g) {
        inService = null;
        idleUntil = 0;
        g.finish = g.start + g.served * WEIGHT_SCALE / g.weight;
        if (g.fifo.isEmpty()) {
            g.active = false;
            active.remove(g);
        } else {
            g.weight = g.weightNow();
            g.start = g.finish;
            g.finish = g.start + maxBudget * WEIGHT_SCALE / g.weight;
        }
        g.served = 0;
    }

    /** {@code bfq_lookup_next_entity}: the active group of least finish (the first of equals), V its start. */
    private BfqGroup select() {
        BfqGroup best = null;
        for (BfqGroup g : active) {
            if (best == null || g.finish < best.finish) {
                best = g;
            }
        }
        if (best != null) {
            vtime = Math.max(vtime, best.start);
            inService = best;
            best.served = 0;
        }
        return best;
    }
}
