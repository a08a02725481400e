package lab.engine.block;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The {@code part-acct} switch (seed 002_84cddfb167739f27.txt): how a disk accounts each I/O to
 * its partition. A mode is a factory: {@link Gendisk}'s constructor asks it once for the disk's
 * strategies, one object per kernel concept, and the I/O path calls them without testing a mode
 * (the kernel's ops-table habit, as {@code lab.engine.zram.MetaGuard} is for zram).
 *
 * <table>
 * <caption>The strategies each mode picks</caption>
 * <tr><th>mode</th><th>partition ref ({@link PartRef})</th><th>{@code in_flight[2]} ({@link PartInFlight})</th>
 *     <th>per-tick work ({@link IoTicks})</th></tr>
 * <tr><td>{@link #ATOMIC}</td><td>{@link AtomicPartRef}: {@code atomic_t}</td>
 *     <td>{@link AtomicInFlight}: {@code atomic_t}, part and part0</td>
 *     <td>{@link PartRoundStats}: atomic reads</td></tr>
 * <tr><td>{@link #PERCPU_REF}</td><td>{@link PercpuPartRef}: {@code percpu_ref}</td><td>{@link AtomicInFlight}</td>
 *     <td>as {@link #ATOMIC}</td></tr>
 * <tr><td>{@link #PERCPU_INFLIGHT}</td><td>{@link PercpuPartRef}</td><td>{@link PercpuInFlight}: per-cpu</td>
 *     <td>{@link PartRoundStats}: sums every possible CPU's slot</td></tr>
 * <tr><td>{@link #LAZY_TICKS}</td><td>{@link PercpuPartRef}</td><td>{@link PercpuInFlight}</td>
 *     <td>{@link UpdateIoTicks}: one compare-and-set on the stamp, no sum</td></tr>
 * <tr><td>{@link #OFF}</td><td colspan="3">{@link IoStatOff}: nothing per I/O, {@code queue/iostats} = 0
 *     (the partitions keep an {@code atomic_t} table reference, which only a delete drops)</td></tr>
 * </table>
 *
 * <p>Every other mode's {@link IoStat} is a {@link BlkAccount} over its three strategies.
 * {@link #id()} is the name benchmarks, scripts and committed results use.
 */
public enum AcctMode {
    /** Before the series (v4.1): {@code hd_struct.ref} and {@code in_flight[]} are shared atomics. */
    ATOMIC("atomic", nrCpus -> AtomicPartRef.INSTANCE, AtomicInFlight.INSTANCE, PartRoundStats::new),
    /** Patches 1-2: the partition reference becomes a {@code percpu_ref}. */
    PERCPU_REF("percpu-ref", PercpuPartRef::new, AtomicInFlight.INSTANCE, PartRoundStats::new),
    /** All four patches: in-flight counters per cpu too, summed by {@code part_in_flight()} once a tick. */
    PERCPU_INFLIGHT("percpu-ref+percpu-inflight", PercpuPartRef::new, PercpuInFlight.INSTANCE, PartRoundStats::new),
    /**
     * Tejun's "way lazier": {@code part_round_stats} gone (v5.0), {@code io_ticks} advanced by
     * {@code update_io_ticks()} (v5.7 form) with one compare-and-set on the stamp per tick, and
     * in-flight summed only when someone reads it.
     */
    LAZY_TICKS("lazy-ticks", PercpuPartRef::new, PercpuInFlight.INSTANCE, inFlight -> UpdateIoTicks.INSTANCE),
    /** {@code queue/iostats} = 0: {@code blk_do_io_stat()} is false, nothing is accounted. */
    OFF("iostats=0", nrCpus -> AtomicPartRef.INSTANCE, AtomicInFlight.INSTANCE, null);

    private final String id;
    /** {@code hd_ref_init}'s kind, made once per disk (a per-cpu one owns the disk's RCU). */
    private final IntFunction<PartRef> partRef;
    private final PartInFlight inFlight;
    /** The per-tick work over the in-flight counters; null: nothing is accounted ({@link IoStatOff}). */
    private final Function<PartInFlight, IoTicks> ticks;

    AcctMode(String id, IntFunction<PartRef> partRef, PartInFlight inFlight, Function<PartInFlight, IoTicks> ticks) {
        this.id = id;
        this.partRef = partRef;
        this.inFlight = inFlight;
        this.ticks = ticks;
    }

    /** The name used by benchmarks, scripts and results. */
    public String id() {
        return id;
    }

    /** {@code blk_do_io_stat()}: whether I/O is accounted at all (a property of the mode, never read per I/O). */
    public boolean enabled() {
        return ticks != null;
    }

    /** The partition reference's kind for a disk of {@code nrCpus} possible CPUs: once, in {@link Gendisk}'s constructor. */
    PartRef newPartRef(int nrCpus) {
        return partRef.apply(nrCpus);
    }

    /** The in-flight counting. */
    PartInFlight inFlight() {
        return inFlight;
    }

    /** The accounting over {@code partRef} (from {@link #newPartRef}), reading {@code jiffies}, with the lab switch {@code lab}: once per disk. */
    IoStat newIoStat(Jiffies jiffies, PartRef partRef, LabPartAcct lab) {
        return ticks == null ? IoStatOff.INSTANCE : new BlkAccount(jiffies, partRef, inFlight, ticks.apply(inFlight), lab);
    }

    /** Every mode's {@link #id()}, in declaration order: the benchmark's variants. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(AcctMode::id).toList();
    }

    /** The mode named {@code id}. */
    public static AcctMode of(String id) {
        for (AcctMode m : values()) {
            if (m.id.equals(id)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown accounting mode: " + id + " (" + String.join(", ", ids()) + ")");
    }
}
