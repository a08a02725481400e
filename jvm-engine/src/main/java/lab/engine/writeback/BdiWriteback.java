package lab.engine.writeback;

import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import lab.engine.blkcg.Blkcg;
import lab.engine.blkcg.CssForward;
import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlkStatus;
import lab.engine.block.BlockDevice;
import lab.engine.block.ReqOp;

/*
 * One cgroup's writeback of one device: struct bdi_writeback as cgroup
 * writeback (4.2, mm/backing-dev.c, fs/fs-writeback.c) makes one per memcg and
 * blkcg pair, with its dirty pages, its dirty limit and its flusher.
 *
 * write(bytes), the writer's thread (generic_perform_write):
 *   balance_dirty_pages: wait while the wb's dirty + under-writeback bytes
 *   would pass its limit (the writer is throttled to its wb's writeout rate)
 *   the pages are dirtied, charged to this wb
 *
 * the flusher (wb_workfn on a kernel worker: a kernel thread, the root
 * cgroup), its own slot:
 *   while there are a bio's worth of dirty bytes and fewer than max_in_flight
 *   bios out: a bio of them, sequential on the wb's file region,
 *   wbc_init_bio: associated with the wb's cgroup (css.associate), submitted
 *   to the device; completions polled on its slot: dirty bytes become written,
 *   the association let go (bio_put), the writer woken
 *
 * Where the model simplifies: no page cache pages (the writer's copy into it is
 * left out: it is per-cgroup CPU, not I/O), a fixed per-wb dirty limit (the
 * kernel's wb_thresh is the global limit times the wb's share of recent
 * writeout: with both writers throttled the effect is the same: each writes as
 * fast as its wb writes out), whole-bio writeback from the oldest dirty byte,
 * no background threshold (the flusher writes as soon as a bio's worth is
 * dirty), no fsync.
 */

/** A cgroup's dirty data on one device, throttled by and written out through its own flusher. */
public final class BdiWriteback implements BioEndIo, AutoCloseable {
    private final String name;
    private final Blkcg blkcg;
    private final BlockDevice dev;
    private final CssForward css;
    private final int cpu;
    private final int bioBytes;
    private final int maxInFlight;
    private final long dirtyLimit;
    private final long regionStart;
    private final long regionEnd;
    private final Bioset bios;
    private final Thread flusher;
    private volatile boolean running = true;

    /** Guards the byte counts below; the writer waits on {@link #room}. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition room = lock.newCondition();
    /** Bytes dirtied and not yet under writeback. */
    private long dirty;
    /** Bytes under writeback (in bios submitted, not yet completed). */
    private long underWriteback;
    /** Bytes the writer dirtied, in all (what dd reports). */
    private long dirtied;
    /** Bytes whose writeback completed. */
    private long written;
    /** Failed writeback bios (none expected). */
    private long errors;

    /** Flusher-only: bios out, the next sector. */
    private int inFlight;
    private long nextSector;

    /**
     * The writeback of cgroup {@code blkcg} on {@code dev}: a file over sectors
     * [{@code regionStart}, {@code regionStart + regionSectors}) written sequentially (wrapping), in
     * bios of {@code bioBytes}, at most {@code maxInFlight} out, the writer throttled at
     * {@code dirtyLimit} bytes; bios associated through {@code css}. The flusher runs on per-cpu
     * slot {@code cpu} of {@code dev} and starts here.
     */
    public BdiWriteback(String name, Blkcg blkcg, BlockDevice dev, CssForward css, int cpu, int nrCpus, long regionStart,
            long regionSectors, int bioBytes, int maxInFlight, long dirtyLimit) {
        this.name = Objects.requireNonNull(name, "name");
        this.blkcg = Objects.requireNonNull(blkcg, "blkcg");
        this.dev = Objects.requireNonNull(dev, "dev");
        this.css = Objects.requireNonNull(css, "css");
        if (bioBytes < 512 || bioBytes % 512 != 0 || maxInFlight < 1 || dirtyLimit < bioBytes
                || regionSectors < bioBytes >>> Bio.SECTOR_SHIFT || cpu < 0 || cpu >= nrCpus) {
            throw new IllegalArgumentException(name + ": bio " + bioBytes + " B, in flight " + maxInFlight + ", dirty limit "
                    + dirtyLimit + " B, region " + regionSectors + " sectors, cpu " + cpu + " of " + nrCpus);
        }
        this.cpu = cpu;
        this.bioBytes = bioBytes;
        this.maxInFlight = maxInFlight;
        this.dirtyLimit = dirtyLimit;
        this.regionStart = regionStart;
        this.regionEnd = regionStart + regionSectors;
        this.nextSector = regionStart;
        this.bios = new Bioset(nrCpus, bioBytes);
        this.flusher = Thread.ofPlatform().name(name + "-flush").daemon().start(this::flush);
    }

    /** {@code generic_perform_write} of {@code bytes}, throttled by {@code balance_dirty_pages}. The writer's thread. */
    public void write(long bytes) throws InterruptedException {
        lock.lock();
        try {
            while (dirty + underWriteback + bytes > dirtyLimit) {
                room.await();
            }
            dirty += bytes;
            dirtied += bytes;
        } finally {
            lock.unlock();
        }
    }

    /** The wb's counts now: bytes dirtied (what dd reports), written back, and failed writeback bios. */
    public record Stat(long dirtied, long written, long errors) {}

    /** A snapshot of the counts. Any thread. */
    public Stat stat() {
        lock.lock();
        try {
            return new Stat(dirtied, written, errors);
        } finally {
            lock.unlock();
        }
    }

    /** Stops the flusher once its bios are back; dirty bytes left are dropped. */
    @Override
    public void close() {
        running = false;
        try {
            flusher.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lock.lock();
        try {
            dirty = 0;
            room.signalAll();
        } finally {
            lock.unlock();
        }
        bios.close();
    }

    /** The flusher: submit while there is a bio's worth dirty and room in flight, poll the rest of the time. */
    private void flush() {
        dev.cpuOnline(cpu);
        try {
            while (running || inFlight > 0) {
                boolean did = dev.poll(cpu) > 0;
                while (running && inFlight < maxInFlight && takeBio()) {
                    submit();
                    did = true;
                }
                if (!did) {
                    LockSupport.parkNanos(20_000);
                }
            }
        } finally {
            dev.cpuOffline(cpu);
        }
    }

    /** Moves a bio's worth of dirty bytes under writeback, if there is one. */
    private boolean takeBio() {
        lock.lock();
        try {
            if (dirty < bioBytes) {
                return false;
            }
            dirty -= bioBytes;
            underWriteback += bioBytes;
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void submit() {
        Bio bio = bios.alloc(cpu, this);
        bio.op = ReqOp.WRITE;
        bio.sector = nextSector;
        bio.size = bioBytes;
        nextSector += bioBytes >>> Bio.SECTOR_SHIFT;
        if (nextSector + (bioBytes >>> Bio.SECTOR_SHIFT) > regionEnd) {
            nextSector = regionStart;
        }
        css.associate(bio, blkcg, cpu); // wbc_init_bio: the wb's cgroup
        inFlight++;
        dev.submitBio(bio);
    }

    /** The writeback bio is done (the flusher's thread: its slot's poll). */
    @Override
    public void endIo(Bio bio) {
        boolean ok = bio.status == BlkStatus.OK;
        int size = bioBytes;
        css.disassociate(bio, cpu);
        bios.free(bio);
        inFlight--;
        lock.lock();
        try {
            underWriteback -= size;
            if (ok) {
                written += size;
            } else {
                errors++;
            }
            room.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
