package lab.engine.sync;

import lab.engine.count.Handoffs;
import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.LockStat;
import lab.engine.count.SharedLines;

/*
 * A read-write semaphore with the kernel's count word (kernel/locking/rwsem.c).
 *
 * Layout of the one shared long:
 *   bit  0      WRITER_LOCKED
 *   bits 1..15  the number of writers waiting (the kernel has one
 *               RWSEM_FLAG_WAITERS bit and a wait list; a count keeps the
 *               "a writer waits" state exact without a list)
 *   bits 16..62 the number of readers, in units of READER_BIAS
 *
 * Reader fast path, as __down_read: one fetch-add of READER_BIAS. If the old
 * value shows neither a writer holding nor a writer waiting, the read lock is
 * held; readers share the lock, but not the cache line: every down_read and
 * up_read is a locked xadd on it, which is the whole cost the zram-init-lock
 * fix measures. Otherwise the reader takes its bias back and waits until no
 * writer holds or waits, then retries. Because a reader defers to a waiting
 * writer, a stream of readers cannot starve a writer (the kernel gets the
 * same from FLAG_WAITERS and handoff). Writers are assumed rare (reset,
 * reconfiguration); a stream of writers can delay readers.
 *
 * Writer fast path, as __down_write: CAS 0 -> WRITER_LOCKED. Otherwise the
 * writer announces itself (adds WRITER_WAITING_ONE), waits until no writer
 * holds and no reader counts, and takes the lock with a CAS that also removes
 * its announcement. up_write subtracts WRITER_LOCKED (a fetch-add, not a
 * store, because readers may have added a transient bias meanwhile).
 *
 * Waiting is Backoff: a short spin, then yield, then sleeps that grow to a
 * millisecond; no wake-up can be lost because there is none to lose.
 *
 * Ordering: the fetch-add or CAS that takes the lock is the acquire; the
 * fetch-add of up_read/up_write is the release that pairs with it.
 *
 * Counting (lab.engine.count): each read lock taken (down_read, or a
 * successful down_read_trylock) is one rwsem-read, the pair it begins with
 * its up_read; a writer's lock is one cas and its unlock one rmw. Fast paths
 * only: what a slow path adds under contention is part of c(rwsem-read, n).
 *
 * Contention (lab.engine.count.LockStat, sides read and write): an
 * acquisition is contended when its fast path fails and it goes to the slow
 * path, its wait from there to the operation that takes the lock; as the
 * kernel fires trace_contention_begin in rwsem_down_read_slowpath and
 * rwsem_down_write_slowpath. Readers alone never contend: a reader's fetch-add
 * fails only on a writer holding or waiting (RWSEM_READ_FAILED_MASK). Where
 * the model differs: 6.1's reader slow path first steals the lock when no
 * writer holds it and no handoff is pending (a writer merely waiting), and
 * fires contention_begin only if it must queue; the model's reader never
 * steals from a waiting writer, so it waits and counts as contended there.
 * 6.1's writer spins optimistically on a running owner before
 * contention_begin; the model has no such spin (its Backoff's first spins
 * are inside the counted wait). Trylocks count an acquisition when they
 * succeed and never a contention, as the kernel's.
 *
 * Handoffs (lab.engine.count.Handoffs): every operation that writes the
 * count word, fast or slow, successful CAS or not, is a write of its line;
 * the word is a line of its own (the PaddedLong), whatever its site's name.
 */

/**
 * A reader-writer semaphore: one atomic count word with reader and writer fast
 * paths; waiting writers hold off new readers.
 */
public final class Rwsem {
    private static final long WRITER_LOCKED = 1L;
    private static final long WRITER_WAITING_ONE = 1L << 1;
    private static final long WRITERS_WAITING_MASK = ((1L << 15) - 1) << 1;
    private static final long READER_SHIFT = 16;
    private static final long READER_BIAS = 1L << READER_SHIFT;
    private static final long READER_MASK = ~(READER_BIAS - 1);
    /** A reader fails its fast path if any of these is set (RWSEM_READ_FAILED_MASK). */
    private static final long READ_FAILED_MASK = WRITER_LOCKED | WRITERS_WAITING_MASK;

    /** The count word; changed only by atomic operations. */
    private final PaddedLong count = new PaddedLong(0);
    /** down_read + up_read pairs. */
    private final LineCounter readPair;
    /** down_write's compare-and-set. */
    private final LineCounter writeCas;
    /** up_write's fetch-add. */
    private final LineCounter writeRmw;
    /** The read side's acquisitions, contended ones and their wait. */
    private final LockStat readStat;
    /** The write side's. */
    private final LockStat writeStat;
    /** The count word's line changing hands. */
    private final Handoffs line;

    /** An unlocked semaphore that reports nothing. */
    public Rwsem() {
        this(SharedLines.NONE, "rwsem");
    }

    /** An unlocked semaphore reporting its shared-line operations to {@code lines} as {@code site}. */
    public Rwsem(SharedLines lines, String site) {
        this.readPair = lines.counter(site, LineOp.RWSEM_READ);
        this.writeCas = lines.counter(site, LineOp.CAS);
        this.writeRmw = lines.counter(site, LineOp.RMW);
        this.readStat = lines.lock(site, LockStat.Side.READ);
        this.writeStat = lines.lock(site, LockStat.Side.WRITE);
        this.line = lines.handoffs(site, count);
    }

    /** down_read: may wait. */
    public void downRead() {
        readPair.add();
        line.write();
        long old = count.getAndAdd(READER_BIAS); // [acquire] pairs with the release in upWrite()
        if ((old & READ_FAILED_MASK) != 0) {
            long begin = readStat.begin(); // trace_contention_begin(LCB_F_READ)
            downReadSlow();
            readStat.end(begin);
        } else {
            readStat.acquired();
        }
    }

    /** down_read_trylock: takes the read lock only if no writer holds or waits. */
    public boolean tryDownRead() {
        for (long c = count.getOpaque(); (c & READ_FAILED_MASK) == 0; c = count.getOpaque()) {
            line.write();
            if (count.compareAndSet(c, c + READER_BIAS)) {
                readPair.add();
                readStat.acquired();
                return true;
            }
        }
        return false;
    }

    /** up_read. */
    public void upRead() {
        line.write();
        long old = count.getAndAdd(-READER_BIAS); // [release] pairs with the acquire CAS in downWrite()
        if ((old & READER_MASK) == 0) {
            count.getAndAdd(READER_BIAS);
            throw new IllegalStateException("up_read without down_read");
        }
    }

    /** down_write: may wait. */
    public void downWrite() {
        writeCas.add();
        line.write();
        if (count.compareAndSet(0, WRITER_LOCKED)) { // [acquire] pairs with the releases in upRead()/upWrite()
            writeStat.acquired();
        } else {
            long begin = writeStat.begin(); // trace_contention_begin(LCB_F_WRITE)
            downWriteSlow();
            writeStat.end(begin);
        }
    }

    /** down_write_trylock. */
    public boolean tryDownWrite() {
        writeCas.add();
        line.write();
        if (count.compareAndSet(0, WRITER_LOCKED)) {
            writeStat.acquired();
            return true;
        }
        return false;
    }

    /** up_write: the caller must hold the write lock. */
    public void upWrite() {
        writeRmw.add();
        line.write();
        long old = count.getAndAdd(-WRITER_LOCKED); // [release] pairs with the acquires of the next holders
        if ((old & WRITER_LOCKED) == 0) {
            count.getAndAdd(WRITER_LOCKED);
            throw new IllegalStateException("up_write without down_write");
        }
    }

    /** Whether a writer holds the lock now (a snapshot, for assertions). */
    public boolean isWriteLocked() {
        return (count.getOpaque() & WRITER_LOCKED) != 0;
    }

    /** Readers counted in the word now, including ones about to back off (a snapshot). */
    public long readerCount() {
        return count.getOpaque() >>> READER_SHIFT;
    }

    private void downReadSlow() {
        line.write();
        count.getAndAdd(-READER_BIAS); // take back the optimistic bias
        int round = 0;
        for (;;) {
            long c = count.getOpaque();
            if ((c & READ_FAILED_MASK) == 0 && casLine(c, c + READER_BIAS)) { // [acquire]
                return;
            }
            round = Backoff.pause(round);
        }
    }

    private void downWriteSlow() {
        line.write();
        count.getAndAdd(WRITER_WAITING_ONE); // new readers now back off
        int round = 0;
        for (;;) {
            long c = count.getOpaque();
            if ((c & (WRITER_LOCKED | READER_MASK)) == 0
                    && casLine(c, c - WRITER_WAITING_ONE + WRITER_LOCKED)) { // [acquire]
                return;
            }
            round = Backoff.pause(round);
        }
    }

    /** A compare-and-set of the count word, a write of its line whether it succeeds or not. */
    private boolean casLine(long expect, long update) {
        line.write();
        return count.compareAndSet(expect, update);
    }

    @Override
    public String toString() {
        long c = count.getOpaque();
        return "Rwsem[readers=" + (c >>> READER_SHIFT) + ", writerLocked=" + ((c & WRITER_LOCKED) != 0)
                + ", writersWaiting=" + ((c & WRITERS_WAITING_MASK) >>> 1) + "]";
    }
}
