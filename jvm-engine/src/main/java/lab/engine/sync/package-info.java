/**
 * The kernel synchronisation primitives that the lab's contention fixes switch
 * between: {@link lab.engine.sync.RefCount} (one shared atomic, refcount_t),
 * {@link lab.engine.sync.PercpuRef} (lib/percpu-refcount.c),
 * {@link lab.engine.sync.Rcu} (a quiescent-state RCU, like RCU-sched),
 * {@link lab.engine.sync.Srcu} (classic SRCU with per-cpu c[2]),
 * {@link lab.engine.sync.Rwsem} (the rw_semaphore count word),
 * {@link lab.engine.sync.Mutex} (owner word, optimistic spin, wait list) and
 * {@link lab.engine.sync.PercpuCounter} (lib/percpu_counter.c).
 * {@link lab.engine.sync.PrimitiveKind} names them as refscale-style benchmarks do.
 *
 * <h2>"Per-CPU" means per worker</h2>
 * Each job thread owns one slot of every per-cpu structure, as a CPU owns its
 * per-cpu area, and passes its slot index ({@code int cpu}) to every
 * operation, as the kernel passes {@code this_cpu_ptr()}. Only the owner of a
 * slot writes it (plain or opaque access, never a lock prefix); other threads
 * read it with opaque or acquire loads. Two threads must never use the same
 * {@code cpu} at the same time.
 *
 * <h2>Access-mode names</h2>
 * As in VarHandle and Agrona, the memory mode is part of a method name where it
 * matters: {@code Plain} (no ordering, may be torn by nothing but reordered by
 * the compiler), {@code Opaque} (READ_ONCE/WRITE_ONCE: coherent, not elided,
 * unordered against other locations), {@code Acquire}/{@code Release}
 * (smp_load_acquire/smp_store_release), {@code Volatile} (fully ordered).
 * Comments tag ordering points as {@code [A]}, {@code [B]} ... after the
 * kernel's own names, and each release names the acquire it pairs with.
 */
package lab.engine.sync;
