package lab.engine.block;

import java.util.Objects;
import lab.engine.work.CpuWork;

/**
 * The null block device, drivers/block/null_blk: takes bios, moves no data, and completes them
 * either at once or after a set latency. Bio-based ({@code queue_mode=0}); the model has no
 * blk-mq request queue.
 *
 * <h2>Completion modes</h2>
 * <ul>
 * <li>{@code irqmode=0} ({@link #immediate}): {@code submitBio} calls {@code endIo} before it
 *     returns, on the submitter's thread.</li>
 * <li>{@code irqmode=2} ({@link #timer}, {@code completion_nsec}): each bio is put on the
 *     completion list of its slot {@link Bio#cpu} with a deadline of now + latency, and completed
 *     by {@link #poll} on that slot once the deadline has passed. The kernel fires an hrtimer
 *     that completes in interrupt context on the submitting CPU; the model has no interrupts, so
 *     the owning worker polls (as io_uring's {@code hipri} polled completion does). So completion
 *     stays on the owner's thread, the lists need no lock, and a bio completes no earlier than its
 *     deadline (later by however long the owner takes to poll).</li>
 * </ul>
 * Both modes end a bio that lies beyond the capacity or is not aligned to the logical block size
 * with {@link BlkStatus#IOERR}, at once.
 *
 * <h2>Per-I/O work ({@code base_ns})</h2>
 * A device made with a {@link CpuWork} spends it once per bio in {@code submitBio}, after the
 * checks and before completing or queueing it: the kernel's own CPU per I/O, which null_blk
 * leaves to the layers around it ({@link CpuWork#NONE}, nothing, by default).
 *
 * <p>Thread safety: {@code submitBio} and {@code poll} for slot {@code c} must run on the thread
 * that owns {@code c}. Nothing is shared between slots. No allocation once each slot's list has
 * grown to the slot's largest number of bios in flight.
 */
public final class NullBlk implements BlockDevice {

    /** One slot's completion list: a FIFO ring of bios and their deadlines. Owner-only, plain. */
    @SuppressWarnings("unused")
    private static final class CompletionList {
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
        /** Ring of bios waiting; length is a power of two. */
        Bio[] bio = new Bio[16];
        /** {@code System.nanoTime()} deadline of each entry of {@link #bio}. */
        long[] deadline = new long[16];
        /** Next entry to complete; grows without bound, used modulo the length. */
        long head;
        /** Next free entry; {@code tail - head} entries are waiting. */
        long tail;
        long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;

        void add(Bio b, long due) {
            if (tail - head == bio.length) {
                grow();
            }
            int i = (int) (tail++ & (bio.length - 1));
            bio[i] = b;
            deadline[i] = due;
        }

        /** Doubles the ring, keeping FIFO order (warm-up only). */
        private void grow() {
            int n = bio.length;
            Bio[] nb = new Bio[2 * n];
            long[] nd = new long[2 * n];
            for (int k = 0; k < n; k++) {
                int from = (int) ((head + k) & (n - 1));
                nb[k] = bio[from];
                nd[k] = deadline[from];
            }
            bio = nb;
            deadline = nd;
            tail = n;
            head = 0;
        }
    }

    private final String name;
    private final long nrSectors;
    private final int logicalBlockSize;
    /** {@code completion_nsec}; 0 completes inline ({@code irqmode=0}). */
    private final long completionNs;
    /** Per-slot completion lists; null in {@code irqmode=0}. */
    private final CompletionList[] lists;
    /** {@code base_ns}: spent per bio in {@code submitBio}. */
    private final CpuWork work;

    private NullBlk(String name, long capacityBytes, int logicalBlockSize, long completionNs, int nrCpus,
                    CpuWork work) {
        if (capacityBytes <= 0 || Integer.bitCount(logicalBlockSize) != 1 || logicalBlockSize < 512
                || completionNs < 0) {
            throw new IllegalArgumentException("null_blk " + name + ": capacity " + capacityBytes
                    + ", bs " + logicalBlockSize + ", completion_nsec " + completionNs);
        }
        this.name = name;
        this.nrSectors = capacityBytes >>> Bio.SECTOR_SHIFT;
        this.logicalBlockSize = logicalBlockSize;
        this.completionNs = completionNs;
        this.work = Objects.requireNonNull(work, "work");
        if (completionNs == 0) {
            this.lists = null;
        } else {
            this.lists = new CompletionList[nrCpus];
            for (int i = 0; i < nrCpus; i++) {
                lists[i] = new CompletionList();
            }
        }
    }

    /** {@code irqmode=0}: completes every bio inside {@code submitBio}. */
    public static NullBlk immediate(String name, long capacityBytes, int logicalBlockSize) {
        return immediate(name, capacityBytes, logicalBlockSize, CpuWork.NONE);
    }

    /** {@link #immediate(String, long, int)} spending {@code work} per bio ({@code base_ns}). */
    public static NullBlk immediate(String name, long capacityBytes, int logicalBlockSize, CpuWork work) {
        return new NullBlk(name, capacityBytes, logicalBlockSize, 0, 0, work);
    }

    /** {@code irqmode=2}: completes each bio from {@link #poll} no earlier than {@code completionNs} after submission. */
    public static NullBlk timer(String name, long capacityBytes, int logicalBlockSize,
                                long completionNs, int nrCpus) {
        return timer(name, capacityBytes, logicalBlockSize, completionNs, nrCpus, CpuWork.NONE);
    }

    /** {@link #timer(String, long, int, long, int)} spending {@code work} per bio ({@code base_ns}). */
    public static NullBlk timer(String name, long capacityBytes, int logicalBlockSize,
                                long completionNs, int nrCpus, CpuWork work) {
        if (completionNs <= 0) {
            throw new IllegalArgumentException("null_blk " + name + ": timer mode needs completion_nsec > 0");
        }
        return new NullBlk(name, capacityBytes, logicalBlockSize, completionNs, nrCpus, work);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long capacitySectors() {
        return nrSectors;
    }

    @Override
    public int logicalBlockSize() {
        return logicalBlockSize;
    }

    /** {@code null_submit_bio()}: check, then complete now or queue on the submitter's slot. */
    @Override
    public void submitBio(Bio bio) {
        if (!Bio.bioCheck(bio, nrSectors, logicalBlockSize)) {
            Bio.bioIoError(bio);
            return;
        }
        work.spend();
        if (lists == null) {
            Bio.bioEndio(bio);
            return;
        }
        lists[bio.cpu].add(bio, System.nanoTime() + completionNs);
    }

    /** The timer's work ({@code null_cmd_timer_expired()}): completes the slot's bios whose deadline has passed. */
    @Override
    public int poll(int cpu) {
        if (lists == null) {
            return 0;
        }
        CompletionList l = lists[cpu];
        if (l.head == l.tail) {
            return 0;
        }
        long now = System.nanoTime();
        int done = 0;
        while (l.head != l.tail) {
            int i = (int) (l.head & (l.bio.length - 1));
            if (l.deadline[i] - now > 0) {
                break;
            }
            Bio bio = l.bio[i];
            l.bio[i] = null;
            l.head++;
            done++;
            Bio.bioEndio(bio);
        }
        return done;
    }

    /** {@code completion_nsec}: 0 in {@code irqmode=0}. */
    public long completionNs() {
        return completionNs;
    }

    /** What each bio spends in {@code submitBio} ({@code base_ns}). */
    public CpuWork work() {
        return work;
    }
}
