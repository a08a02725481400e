package lab.engine.bufio;

import lab.engine.count.LineCounter;
import lab.engine.count.LineOp;
import lab.engine.count.SharedLines;
import lab.engine.sync.Mutex;
import lab.engine.sync.Rwsem;

/*
 * The switch of thin-bufio-lock: how a BufioClient's cache is locked, one
 * implementation per BufioLocking, chosen when the client is created (an ops
 * table). BufioClient calls the same methods whichever it is:
 *
 *   get(block)      the hit path of dm_bufio_get/_read: find the buffer, take
 *                   a hold on it
 *   put(b)          dm_bufio_release: drop the hold
 *   lock/unlockExclusive, insert/evict
 *                   the miss path, dirty marking, write-back: everything that
 *                   changes the tree or the LRU
 *   walkBegin/walkGet/walkPut/walkEnd
 *                   a btree walk's node reads: get and put, except under
 *                   rwsem-walk, where the walk holds the read lock throughout
 *                   and a node needs no hold (the lock keeps it cached)
 *
 *   mutex       6.1's c->lock: get = lock, find, hold++ and move to the LRU's
 *               head (__relink_lru), unlock; put = lock, hold--, unlock. Two
 *               lock pairs per btree node, every one on the same line.
 *   rwsem       the series' patch 2: get = down_read, find, atomic hold++ and
 *               mark referenced, up_read; put = down_read, atomic hold--,
 *               up_read. Readers share the lock but not its line: four
 *               atomics on it per node, and two on the buffer's hold count.
 *   rwsem-walk  patches 1 + 4: one down_read/up_read for the whole lookup;
 *               no hold counts in between. Outside walks, as rwsem.
 *   striped     6.4: the buffers in N trees (dm_num_hash_locks(): twice the
 *               CPUs rounded up to a power of two, at most 64), each with its
 *               own rw_semaphore on its own line; get/put as rwsem's on the
 *               block's tree (cache_get/cache_put); the client mutex only for
 *               the miss path. The root node of a btree is in one tree, so
 *               every lookup still meets every other on that tree's lock.
 *
 * Counting: the client lock is the site bufio.lock, the stripes' locks
 * bufio.tree, atomic hold counts bufio.hold (rmw).
 *
 * The lab kernel's switch dm_bufio.lab_client_lock (6.12/thin-bufio-lock.patch)
 * amplified: striped with a client-lock count N > 0 (AmpStripedLock, chosen at
 * creation) takes and drops the client mutex N times back to back on the hit
 * path of get (after the stripe found the buffer, as new_read()'s cache-hit
 * path after cache_get()) and at the top of put (dm_bufio_release()): 2N
 * bufio.lock acquisitions per btree node visited. Where the model simplifies:
 * as the switch, the critical section is empty; a miss is not doubled; the
 * mutex is the model's Mutex (lab.engine.sync), not the kernel's with its
 * optimistic spinning.
 */

/** How a {@link BufioClient}'s cache is locked; see the notes above. */
abstract sealed class CacheLock permits CacheLock.MutexLock, CacheLock.AtomicHolds {
    static final String SITE_LOCK = "bufio.lock";
    static final String SITE_TREE = "bufio.tree";
    static final String SITE_HOLD = "bufio.hold";

    /** The lock of {@code locking} for {@code c}, reporting to {@code lines}. */
    static CacheLock of(BufioLocking locking, SharedLines lines) {
        return of(locking, 0, lines);
    }

    /**
     * The lock of {@code locking}, with the lab switch's {@code clientLockCount} extra client-lock
     * acquisitions per hit and per release (striped only; 0 for none).
     */
    static CacheLock of(BufioLocking locking, int clientLockCount, SharedLines lines) {
        if (clientLockCount != 0) {
            if (locking != BufioLocking.STRIPED || clientLockCount < 0) {
                throw new IllegalArgumentException("bufio: client-lock count " + clientLockCount + " on " + locking.id()
                        + " (the lab switch's sites are 6.12's striped path only)");
            }
            return new AmpStripedLock(lines, clientLockCount);
        }
        return switch (locking) {
            case MUTEX -> new MutexLock(lines);
            case RWSEM -> new RwsemLock(lines, false);
            case RWSEM_WALK -> new RwsemLock(lines, true);
            case STRIPED -> new StripedLock(lines);
        };
    }

    /** The hit path: {@code block}'s buffer with a hold taken; null when not cached, or (with {@code nfGet}) still being read. */
    abstract Buffer get(BufioClient c, long block, boolean nfGet);

    /** {@code dm_bufio_release}'s part: drops a hold; true when it was the last. */
    abstract boolean put(BufioClient c, Buffer b);

    /** A hold on {@code b} under the exclusive lock (the miss path found it cached after all). */
    abstract void holdUnderExclusive(Buffer b);

    abstract void lockExclusive();

    abstract void unlockExclusive();

    /** Into the index: under the exclusive lock. */
    void insert(BufioClient c, Buffer b) {
        c.treeOf(b.block).insert(b);
    }

    /** Out of the index if no one holds it: under the exclusive lock; false when it is held. */
    boolean evict(BufioClient c, Buffer b) {
        if (b.holdCount() != 0) {
            return false;
        }
        c.treeOf(b.block).remove(b);
        return true;
    }

    void walkBegin() {
    }

    /** A node of a walk: a held buffer (or, under rwsem-walk, one the walk's lock keeps), null on a miss. */
    Buffer walkGet(BufioClient c, long block) {
        return get(c, block, true);
    }

    void walkPut(BufioClient c, Buffer b) {
        put(c, b);
    }

    void walkEnd() {
    }

    /** 6.1: {@code c->lock} a mutex. */
    static final class MutexLock extends CacheLock {
        private final Mutex lock;

        MutexLock(SharedLines lines) {
            lock = new Mutex(lines, SITE_LOCK);
        }

        @Override
        Buffer get(BufioClient c, long block, boolean nfGet) {
            lock.lock();
            try {
                Buffer b = c.treeOf(block).find(block);
                if (b == null || (nfGet && b.reading())) {
                    return null;
                }
                b.hold++;
                c.relink(b);
                return b;
            } finally {
                lock.unlock();
            }
        }

        @Override
        boolean put(BufioClient c, Buffer b) {
            lock.lock();
            try {
                if (b.hold <= 0) {
                    throw new IllegalStateException("bufio: release of an unheld " + b);
                }
                return --b.hold == 0;
            } finally {
                lock.unlock();
            }
        }

        @Override
        void holdUnderExclusive(Buffer b) {
            b.hold++;
        }

        @Override
        void lockExclusive() {
            lock.lock();
        }

        @Override
        void unlockExclusive() {
            lock.unlock();
        }
    }

    /** Atomic hold counts, shared by the rw_semaphore variants. */
    abstract static sealed class AtomicHolds extends CacheLock permits RwsemLock, StripedLock {
        private final LineCounter holdRmw;

        AtomicHolds(SharedLines lines) {
            holdRmw = lines.counter(SITE_HOLD, LineOp.RMW);
        }

        /** {@code __cache_inc_buffer}: hold++, and mark the buffer referenced (a store only when it is not). */
        final void hold(Buffer b) {
            holdRmw.add();
            Buffer.HOLD.getAndAdd(b, 1);
            if (!b.referenced) {
                b.referenced = true;
            }
        }

        /** Under a shared lock of {@code t}: the buffer held, or null (absent, or being read with {@code nfGet}). */
        final Buffer findAndHold(BufferTree t, long block, boolean nfGet) {
            Buffer b = t.find(block);
            if (b == null || (nfGet && b.reading())) {
                return null;
            }
            hold(b);
            return b;
        }

        /** {@code atomic_dec_and_test(&b->hold_count)}. */
        final boolean unhold(Buffer b) {
            holdRmw.add();
            int old = (int) Buffer.HOLD.getAndAdd(b, -1);
            if (old <= 0) {
                Buffer.HOLD.getAndAdd(b, 1);
                throw new IllegalStateException("bufio: release of an unheld " + b);
            }
            return old == 1;
        }

        @Override
        final void holdUnderExclusive(Buffer b) {
            hold(b);
        }
    }

    /** The series' patches 2 (and, with {@code walk}, 1 + 4): {@code c->lock} an rw_semaphore. */
    static final class RwsemLock extends AtomicHolds {
        private final Rwsem lock;
        private final boolean walk;

        RwsemLock(SharedLines lines, boolean walk) {
            super(lines);
            lock = new Rwsem(lines, SITE_LOCK);
            this.walk = walk;
        }

        @Override
        Buffer get(BufioClient c, long block, boolean nfGet) {
            lock.downRead();
            try {
                return findAndHold(c.treeOf(block), block, nfGet);
            } finally {
                lock.upRead();
            }
        }

        @Override
        boolean put(BufioClient c, Buffer b) {
            lock.downRead();
            try {
                return unhold(b);
            } finally {
                lock.upRead();
            }
        }

        @Override
        void lockExclusive() {
            lock.downWrite();
        }

        @Override
        void unlockExclusive() {
            lock.upWrite();
        }

        @Override
        void walkBegin() {
            if (walk) {
                lock.downRead(); // dm_bufio_lock_read: the whole lookup under one read lock
            }
        }

        @Override
        Buffer walkGet(BufioClient c, long block) {
            if (!walk) {
                return get(c, block, true);
            }
            Buffer b = c.treeOf(block).find(block); // cached and kept so while the read lock is held: no hold
            if (b == null || b.reading()) {
                return null;
            }
            if (!b.referenced) {
                b.referenced = true;
            }
            return b;
        }

        @Override
        void walkPut(BufioClient c, Buffer b) {
            if (!walk) {
                put(c, b);
            }
        }

        @Override
        void walkEnd() {
            if (walk) {
                lock.upRead();
            }
        }
    }

    /** 6.4: one rw_semaphore per tree; the client mutex for the miss path only. */
    static sealed class StripedLock extends AtomicHolds permits AmpStripedLock {
        final Mutex client;

        StripedLock(SharedLines lines) {
            super(lines);
            client = new Mutex(lines, SITE_LOCK);
        }

        @Override
        Buffer get(BufioClient c, long block, boolean nfGet) {
            BufferTree t = c.treeOf(block);
            t.lock.downRead();
            try {
                return findAndHold(t, block, nfGet);
            } finally {
                t.lock.upRead();
            }
        }

        @Override
        boolean put(BufioClient c, Buffer b) {
            BufferTree t = c.treeOf(b.block);
            t.lock.downRead();
            try {
                return unhold(b);
            } finally {
                t.lock.upRead();
            }
        }

        @Override
        void lockExclusive() {
            client.lock();
        }

        @Override
        void unlockExclusive() {
            client.unlock();
        }

        @Override
        void insert(BufioClient c, Buffer b) {
            BufferTree t = c.treeOf(b.block);
            t.lock.downWrite();
            try {
                t.insert(b);
            } finally {
                t.lock.upWrite();
            }
        }

        /** Readers of the tree take holds without the client mutex: the hold count is read under the tree's write lock. */
        @Override
        boolean evict(BufioClient c, Buffer b) {
            BufferTree t = c.treeOf(b.block);
            t.lock.downWrite();
            try {
                return super.evict(c, b);
            } finally {
                t.lock.upWrite();
            }
        }
    }

    /**
     * 6.12's striped path with the lab switch on: {@code count} lock/unlock pairs of the client
     * mutex, back to back and empty, on a hit and at each release (dm_bufio_lab_lock_op).
     */
    static final class AmpStripedLock extends StripedLock {
        private final int count;

        AmpStripedLock(SharedLines lines, int count) {
            super(lines);
            this.count = count;
        }

        private void clientLockOps() {
            for (int i = 0; i < count; i++) {
                client.lock();
                client.unlock();
            }
        }

        @Override
        Buffer get(BufioClient c, long block, boolean nfGet) {
            Buffer b = super.get(c, block, nfGet);
            if (b != null) { // new_read()'s cache-hit path, after cache_get()
                clientLockOps();
            }
            return b;
        }

        @Override
        boolean put(BufioClient c, Buffer b) {
            clientLockOps(); // the top of dm_bufio_release()
            return super.put(c, b);
        }
    }
}
