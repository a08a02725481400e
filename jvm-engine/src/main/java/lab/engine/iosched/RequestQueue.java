package lab.engine.iosched;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import lab.engine.blkcg.Blkcg;
import lab.engine.block.Bio;
import lab.engine.block.BlkStatus;
import lab.engine.block.BlockDevice;

/*
 * A request-based disk with BFQ as its elevator and a finite bandwidth: null_blk
 * with queue_mode=2 (blk-mq), mbps= and memory_backed=0, as the lab's kernel
 * scenario makes it, with the request queue's scheduler set to bfq.
 *
 * submit_bio, on the submitter's thread:
 *   the bio's cgroup: its association (bio_blkcg), or, if it carries none,
 *   the submitting task's (task_css(current): 2016's fallback for a bio no
 *   one associated)
 *   queue lock; bfq.insert; wake the hardware; unlock
 *
 * The hardware, one thread (the disk and its dispatch, as blk_mq_run_hw_queue
 * and null_blk's bandwidth timer are):
 *   queue lock; bio = bfq.dispatch(now), or wait (for a submission, or the end
 *   of the in-service group's idle window); unlock
 *   serve it: the device's clock advances by latency + size / bandwidth (a
 *   token bucket, as null_blk's mbps: time lost to a late wake-up is not lost
 *   to the bandwidth); park until then
 *   hand the bio to its owner's completion ring; queue lock; bfq.completed
 *
 * poll(cpu), on the owner's thread: ends the bios its ring holds (bio_endio),
 * so every completion above (dm's clone_endio, the writer's) runs on the thread
 * that owns the bio's per-cpu state, as NullBlk's timer mode does.
 *
 * Where the model simplifies: one request at a time (queue depth 1, a single
 * head), no merging (a bio is a request), no data (memory_backed=0: writes
 * are dropped, reads are not supported), no tags or hardware contexts.
 */

/** A null_blk disk of finite bandwidth whose request queue's elevator is {@link Bfq}. */
public final class RequestQueue implements BlockDevice, AutoCloseable {
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;

    static {
        try {
            TAIL = MethodHandles.lookup().findVarHandle(DoneRing.class, "tail", long.class);
            HEAD = MethodHandles.lookup().findVarHandle(DoneRing.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The bios one owner has to end: single producer (the hardware), single consumer (the owner). Padded. */
    @SuppressWarnings("unused")
    private static final class DoneRing {
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
        final Bio[] ring = new Bio[RING];
        /** Next entry the hardware fills [release]. */
        long tail;
        /** Next entry the owner ends [release]. */
        long head;
        long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    }

    /** Entries of a completion ring: more than any owner keeps in flight. */
    static final int RING = 1024;

    /** What the cgroup's {@code io.stat} shows for this device: bios and bytes charged, and how many carried an association. */
    public record Charge(long bios, long bytes, long tagged) {}

    private final String name;
    private final long nrSectors;
    private final long latencyNs;
    /** Nanoseconds of transfer per byte times 2^20 (bandwidth given in MiB/s). */
    private final double nsPerByte;
    private final Bfq bfq;
    private final DoneRing[] done;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Thread hw;
    private volatile boolean running = true;

    /**
     * A disk of {@code capacityBytes} at {@code mibPerSec} plus {@code latencyNs} per request, for
     * {@code nrCpus} owner slots, scheduled by {@code bfq}. Its hardware thread starts here.
     */
    public RequestQueue(String name, long capacityBytes, int nrCpus, double mibPerSec, long latencyNs, Bfq bfq) {
        this.name = Objects.requireNonNull(name, "name");
        if (capacityBytes < 4096 || nrCpus < 1 || !(mibPerSec > 0) || latencyNs < 0) {
            throw new IllegalArgumentException(name + ": capacity " + capacityBytes + ", cpus " + nrCpus + ", MiB/s " + mibPerSec
                    + ", latency " + latencyNs);
        }
        this.nrSectors = capacityBytes >>> Bio.SECTOR_SHIFT;
        this.latencyNs = latencyNs;
        this.nsPerByte = 1e9 / (mibPerSec * (1 << 20));
        this.bfq = Objects.requireNonNull(bfq, "bfq");
        this.done = new DoneRing[nrCpus];
        for (int i = 0; i < nrCpus; i++) {
            done[i] = new DoneRing();
        }
        this.hw = Thread.ofPlatform().name(name + "-hw").daemon().start(this::hardware);
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
        return 512;
    }

    /** {@code submit_bio}: into the elevator under the cgroup the bio is charged to. Any thread; {@code bio.cpu} must be a slot of this disk. */
    @Override
    public void submitBio(Bio bio) {
        if (!Bio.bioCheck(bio, nrSectors, 512) || !running) {
            Bio.bioIoError(bio);
            return;
        }
        Blkcg cg = bio.blkcgAssociation instanceof Blkcg a ? a : Blkcg.current();
        lock.lock();
        try {
            bfq.insert(bio, bfq.group(cg));
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Ends the bios of slot {@code cpu} the hardware has finished. Owner of {@code cpu} only. */
    @Override
    public int poll(int cpu) {
        DoneRing r = done[cpu];
        long head = r.head;
        long tail = (long) TAIL.getAcquire(r);
        int n = 0;
        while (head < tail) {
            int i = (int) (head & (RING - 1));
            Bio bio = r.ring[i];
            r.ring[i] = null;
            head++;
            HEAD.setRelease(r, head);
            bio.status = BlkStatus.OK;
            Bio.bioEndio(bio);
            n++;
        }
        return n;
    }

    /** Each cgroup's charge at this device so far, by cgroup name ("/" the root). Any thread. */
    public Map<String, Charge> charges() {
        lock.lock();
        try {
            Map<String, Charge> m = new LinkedHashMap<>();
            for (BfqGroup g : bfq.groups()) {
                m.put(g.name(), new Charge(g.bios, g.bytes, g.tagged));
            }
            return m;
        } finally {
            lock.unlock();
        }
    }

    /** Stops the hardware; bios still queued are never served. Nothing may be submitted after. */
    @Override
    public void close() {
        running = false;
        lock.lock();
        try {
            work.signal();
        } finally {
            lock.unlock();
        }
        try {
            hw.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The hardware thread: dispatch, serve, complete, one bio at a time. */
    private void hardware() {
        long clock = System.nanoTime(); // the device's own clock: when it is next free
        while (running) {
            Bio bio = next();
            if (bio == null) {
                return;
            }
            clock = Math.max(clock, System.nanoTime()) + latencyNs + (long) (bio.size * nsPerByte);
            for (long left; (left = clock - System.nanoTime()) > 0;) {
                LockSupport.parkNanos(left);
            }
            complete(bio);
            lock.lock();
            try {
                bfq.completed(System.nanoTime());
            } finally {
                lock.unlock();
            }
        }
    }

    /** The next bio BFQ dispatches, waiting for one; null once closed. */
    private Bio next() {
        lock.lock();
        try {
            while (running) {
                long now = System.nanoTime();
                Bio bio = bfq.dispatch(now);
                if (bio != null) {
                    return bio;
                }
                long until = bfq.idleUntil();
                try {
                    if (until != 0) {
                        work.awaitNanos(until - now);
                    } else {
                        work.await();
                    }
                } catch (InterruptedException e) {
                    return null;
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    private void complete(Bio bio) {
        DoneRing r = done[bio.cpu];
        long tail = r.tail;
        while (tail - (long) HEAD.getAcquire(r) >= RING) {
            Thread.onSpinWait(); // the owner has not ended a full ring yet: never with the lab's depths
        }
        r.ring[(int) (tail & (RING - 1))] = bio;
        TAIL.setRelease(r, tail + 1);
    }
}
