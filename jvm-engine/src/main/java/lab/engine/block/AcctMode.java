package lab.engine.block;

/**
 * The {@code part-acct} switch (seed 002_84cddfb167739f27.txt): how a disk accounts each I/O to
 * its partition. Read by {@link BlkAccount} only; every other class is the same in all modes.
 *
 * <table>
 * <caption>What each mode keeps, and where</caption>
 * <tr><th>mode</th><th>partition ref</th><th>{@code in_flight[2]}</th><th>per-tick work</th></tr>
 * <tr><td>{@link #ATOMIC}</td><td>{@code atomic_t}</td><td>{@code atomic_t}, part and part0</td>
 *     <td>{@code part_round_stats}: atomic reads</td></tr>
 * <tr><td>{@link #PERCPU_REF}</td><td>{@code percpu_ref}</td><td>{@code atomic_t}</td>
 *     <td>as {@link #ATOMIC}</td></tr>
 * <tr><td>{@link #PERCPU_INFLIGHT}</td><td>{@code percpu_ref}</td><td>per-cpu</td>
 *     <td>{@code part_round_stats}: sums every possible CPU's slot</td></tr>
 * <tr><td>{@link #LAZY_TICKS}</td><td>{@code percpu_ref}</td><td>per-cpu</td>
 *     <td>{@code update_io_ticks}: one compare-and-set on the stamp, no sum</td></tr>
 * <tr><td>{@link #OFF}</td><td colspan="3">nothing: {@code queue/iostats} = 0</td></tr>
 * </table>
 */
public enum AcctMode {
    /** Before the series (v4.1): {@code hd_struct.ref} and {@code in_flight[]} are shared atomics. */
    ATOMIC("atomic", false, false, false),
    /** Patches 1-2: the partition reference becomes a {@code percpu_ref}. */
    PERCPU_REF("percpu-ref", true, false, false),
    /** All four patches: in-flight counters per cpu too, summed by {@code part_in_flight()} once a tick. */
    PERCPU_INFLIGHT("percpu-ref+percpu-inflight", true, true, false),
    /**
     * Tejun's "way lazier": {@code part_round_stats} gone (v5.0), {@code io_ticks} advanced by
     * {@code update_io_ticks()} (v5.7 form) with one compare-and-set on the stamp per tick, and
     * in-flight summed only when someone reads it.
     */
    LAZY_TICKS("lazy-ticks", true, true, true),
    /** {@code queue/iostats} = 0: {@code blk_do_io_stat()} is false, nothing is accounted. */
    OFF("iostats=0", false, false, false);

    private final String id;
    private final boolean percpuRef;
    private final boolean percpuInFlight;
    private final boolean lazyTicks;

    AcctMode(String id, boolean percpuRef, boolean percpuInFlight, boolean lazyTicks) {
        this.id = id;
        this.percpuRef = percpuRef;
        this.percpuInFlight = percpuInFlight;
        this.lazyTicks = lazyTicks;
    }

    /** The name used by benchmarks, scripts and results. */
    public String id() {
        return id;
    }

    /** {@code blk_do_io_stat()}. */
    public boolean enabled() {
        return this != OFF;
    }

    /** Whether the partition reference is a {@code percpu_ref} (else an {@code atomic_t}). */
    public boolean percpuRef() {
        return percpuRef;
    }

    /** Whether {@code in_flight[]} lives in the per-cpu {@code disk_stats} (else two {@code atomic_t}). */
    public boolean percpuInFlight() {
        return percpuInFlight;
    }

    /** Whether ticks are kept by {@code update_io_ticks()} (else by {@code part_round_stats()}). */
    public boolean lazyTicks() {
        return lazyTicks;
    }

    /** The mode named {@code id}. */
    public static AcctMode of(String id) {
        for (AcctMode m : values()) {
            if (m.id.equals(id)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown accounting mode: " + id
                + " (atomic, percpu-ref, percpu-ref+percpu-inflight, lazy-ticks, iostats=0)");
    }
}
