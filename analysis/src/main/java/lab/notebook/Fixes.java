package lab.notebook;

import java.util.List;
import java.util.Optional;

/**
 * The fixes the lab studies and their published figures. Every figure is taken from the seed
 * index (shared/seeds/README.md) and the thread it names; the file is cited with each.
 */
public final class Fixes {
    private Fixes() {}

    public static final Fix PRIMITIVES = new Fix("primitives",
            "calibration: the sync primitives alone, and today's real zram as the per-I/O cost floor",
            null, "atomic-refcount total throughput at the highest thread count over 1 thread", null,
            "no seed: the lab's own calibration (what one shared atomic costs here, against what one I/O costs)",
            true);

    public static final List<Fix> ALL = List.of(
            PRIMITIVES,
            new Fix("dm-css-ref", "dm clones take the blkcg css reference per-cpu, never as a shared atomic",
                    "000_c7038be60bc9096a.txt", "slow-down from one extra atomic per clone (time after / time before)", 1.74,
                    "4 GiB ramdisk, 5 nested dm-linear; fio randrw bs=512 direct, 12 jobs on 12 cores: 23 s -> 40 s"
                            + " with one extra cmpxchg on the css refcount in bio_clone_context (1.74x slower)",
                    false),
            new Fix("zram-init-lock", "zram drops init_lock (down_read per I/O) from the I/O path",
                    "001_8702db15985e6798.txt", "SRCU / rwsem throughput at 4 workers (randrw)", 1.023,
                    "fio randread / randwrite / randrw on 1 GiB zram, 4 CPUs, perf stat -r 10: SRCU vs rwsem"
                            + " -0.63% (randread), +1.24% (randwrite), +2.3% (randrw): \"marginal\"",
                    true),
            new Fix("part-acct", "partition refcount and in-flight counters become per-cpu",
                    "002_84cddfb167739f27.txt", "all four patches / before, fio randread over null_blk", 1.15,
                    "fio randread over null_blk, dual socket: first two patches ~8%, all four ~15%; Jens Axboe:"
                            + " the per-cpu sum in part_round_stats (up to once per jiffy) can eat the gain",
                    true),
            new Fix("dm-blkcg-clone", "stacked dm devices copy the bio's blkcg association to their clones",
                    "003_e853cddf414699dc.txt", "throughput ratio of blkio.weight 1000 vs 500 (buffered, with the fix)", 1.92,
                    "two containers on LVM-thin, dd bs=1M count=3000, weight 500 vs 1000: with the fix, buffered"
                            + " 29.9 vs 15.6 MB/s (~1.9:1); direct 20.8 vs 20.0 MB/s (not yet fixed)",
                    false),
            new Fix("thin-bufio-lock", "dm-bufio's client lock: mutex -> rw_semaphore, taken once per btree walk",
                    "004_779fcd164b83d477.txt", "throughput after / before, fio randrw psync 12 jobs on a thin volume", 1.55,
                    "32 GiB pool on emulated pmem, 16 GiB thin volume written first; fio psync randrw 4k direct"
                            + " numjobs=12: 286 + 286 MiB/s -> 442 + 442 MiB/s (1.55x)",
                    false));

    public static Optional<Fix> byId(String id) {
        return ALL.stream().filter(f -> f.id().equals(id)).findFirst();
    }

    /** The ids `./lab pair` accepts: the modelled entries. */
    public static List<String> pairable() {
        return ALL.stream().filter(Fix::modelled).map(Fix::id).toList();
    }
}
