/**
 * Device-mapper, as drivers/md/dm.c and its targets: a {@link MappedDevice} whose live
 * {@link DmTable} maps sector ranges to {@link DmTarget}s ({@link LinearTarget}: dm-linear.c);
 * every bio is cloned ({@code bio_alloc_clone}) per layer, the clone remapped by the target and
 * submitted below, and completion walks back up the stack ({@code clone_endio}). Mapped devices
 * stack to any depth over any engine {@link lab.engine.block.BlockDevice}. The clone's cgroup
 * association is {@link lab.engine.blkcg.CssForward}'s (the dm-css-ref switch); contention points
 * can be injected at clone, map and end_io ({@link lab.engine.inject.Injection}).
 */
package lab.engine.dm;
