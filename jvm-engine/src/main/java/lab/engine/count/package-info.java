/**
 * Counting the shared-line operations of the model per I/O: the m of the lab's prediction
 * (DESIGN.md, "Fidelity: raw, calibrated, predicted").
 *
 * <p>{@link lab.engine.count.SharedLines} is the sink a primitive or device is given at
 * construction ({@link lab.engine.count.SharedLines#NONE} by default, which costs nothing);
 * {@link lab.engine.count.LineTally} counts, by site and {@link lab.engine.count.LineOp} kind;
 * {@link lab.engine.count.SharedLineCounts} is what a count run returns. The count runs
 * themselves run a benchmark's own I/O and live beside it: {@code lab.engine.bench.PartAcctCounts}
 * and {@code lab.engine.bench.ZramCounts}.
 *
 * <p>Who counts what: {@code RefCount} (rmw, cas), {@code PercpuRef} (its atomic mode only: rmw,
 * cas, the mode store), {@code Rwsem} (rwsem-read per down_read; a writer's cas and rmw),
 * {@code Mutex} (mutex per lock), {@code PercpuCounter} (a fold: its lock and the count's store);
 * in the block model each partition's hot line ({@code part.ref}, {@code part.in_flight},
 * {@code part.stamp}, and {@code part0.*} for the whole disk); in zram the guard
 * ({@code zram.init_lock}, {@code zram.meta_ref}), the statistics ({@code zram.stats.*}) and the
 * pool ({@code zs_pool.class.lock}, {@code zs_pool.pages_allocated}). {@code Rcu} and {@code Srcu}
 * write no shared line on their read side and take no sink; their update side (grace periods) is
 * not per I/O.
 *
 * <p>Contention and handoffs, for a run with many threads: {@link lab.engine.count.LockStat} (a lock
 * site's acquisitions, contended ones, and their wait, where the kernel fires
 * {@code lock:contention_begin/end}: {@code Mutex}, {@code Rwsem}'s two sides, so the bufio client
 * lock and zram's {@code init_lock}; {@code zram.srcu}'s read side, never contended) and
 * {@link lab.engine.count.Handoffs} (a line's writes that find another thread's last write: the
 * {@code Rwsem} count word, {@code RefCount}, so the dm-css-ref css count, and a partition's hot
 * line) come from the same sink at construction, and count only in a
 * {@link lab.engine.count.Contention}, per thread and summed on read.
 */
package lab.engine.count;
