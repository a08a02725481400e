package lab.engine.iosched;

import java.util.ArrayDeque;
import lab.engine.blkcg.Blkcg;
import lab.engine.block.Bio;

/**
 * One cgroup's share of a device under {@link Bfq}: {@code struct bfq_group} (block/bfq-cgroup.c)
 * with the one {@code bfq_queue} the model gives it, and the cgroup's {@code io.stat} there.
 *
 * <p>The scheduling entity's timestamps are virtual times, in sectors scaled by
 * {@link Bfq#WEIGHT_SCALE} over the weight ({@code bfq_delta}): a group that is served {@code s}
 * sectors advances its finish by {@code s * WEIGHT_SCALE / weight}, so a heavier group's finish
 * grows slower and it is picked more often. Guarded by the {@link Bfq}'s owner (the queue lock).
 */
final class BfqGroup {
    /** The cgroup; null for the root group. */
    final Blkcg blkcg;
    /** The queue's requests, oldest first (the model's one {@code bfqq} per group: FIFO order). */
    final ArrayDeque<Bio> fifo = new ArrayDeque<>(64);
    /** {@code entity->weight}: the cgroup's weight as of the entity's last activation. */
    int weight;
    /** {@code entity->start}, {@code entity->finish}: virtual times. */
    long start;
    long finish;
    /** Whether the entity is on the service tree (backlogged, or in service). */
    boolean active;
    /** Sectors dispatched in the current service slot ({@code entity->service}). */
    long served;

    /** io.stat: bios and bytes dispatched to the device charged to this group; {@code tagged}: those that carried an association. */
    long bios;
    long bytes;
    long tagged;

    BfqGroup(Blkcg blkcg) {
        this.blkcg = blkcg;
        this.weight = weightNow();
    }

    /** The weight the entity takes at activation: the cgroup's, or the root's default. */
    int weightNow() {
        return blkcg == null ? Blkcg.DEFAULT_WEIGHT : blkcg.weight();
    }

    String name() {
        return blkcg == null ? "/" : blkcg.name();
    }
}
