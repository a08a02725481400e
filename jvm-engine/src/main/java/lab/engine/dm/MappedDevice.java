package lab.engine.dm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import lab.engine.blkcg.CssForward;
import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlkStatus;
import lab.engine.block.BlockDevice;
import lab.engine.inject.InjectPoint;
import lab.engine.inject.Injection;
import lab.engine.sync.Rcu;
import lab.jobspec.Inject;

/*
 * A mapped device, struct mapped_device (drivers/md/dm.c, dm-core.h).
 *
 * dm_submit_bio, per bio, on the submitter's thread:
 *
 *   rcu read lock                     dm_get_live_table
 *   table = md->map [acquire]
 *   check: within the table, aligned; target = dm_table_find_target
 *   table.pending++ (own slot)        start of the io
 *   tio from the own slot's cache     alloc_io / alloc_tio
 *   clone = bio_alloc_clone(orig)     shares orig's pages, own iterator
 *   css.cloneAssociation(clone, orig) bio_clone_blkg_association: the switch
 *   inject clone, inject map
 *   target.map(tio): REMAPPED -> submit the clone to tio.dev
 *   rcu read unlock                   dm_put_live_table
 *   quiescent state, if orig is no clone (the top of the stack: see below)
 *
 * clone_endio, as the clone completes below (on the submitter's thread in
 * every engine device):
 *
 *   target.endIo(tio); inject end_io; css.disassociate(clone)
 *   orig.status = clone's error, if any; free clone and tio
 *   table.pending-- [release]         dm_io_dec_pending
 *   bio_endio(orig)                   the completion walks on up the stack
 *
 * RCU. The kernel reads the live table under SRCU (md->io_barrier: an
 * smp_mb() per lock and unlock) unless the bio is REQ_NOWAIT, when it uses
 * plain RCU (dm_get_live_table_fast). The model uses RCU for every bio: one
 * lab.engine.sync.Rcu for the whole stack (and for the per-cpu css counts),
 * in which a worker goes online once (cpuOnline) and reports a quiescent
 * state as its bio returns from the top of the stack, outside every dm
 * section. So the model's per-layer cost leaves out SRCU's two fences; they
 * are per-cpu work, the same in every variant.
 *
 * What the model leaves out: splitting (a bio crossing a target boundary ends
 * with BLK_STS_IOERR, where dm would split it; the lab's tables are one
 * target), suspend/resume and deferred bios (swapTable drains the old
 * table's I/O while new bios use the new table), accounting of the mapped
 * device, flushes and REQ_NOWAIT.
 */

/**
 * A device-mapper device: its live {@link DmTable}, a clone-only {@link Bioset}, and the
 * {@link CssForward} its clones follow. A {@link BlockDevice}, so stacks of any depth form by
 * building one over another.
 */
public final class MappedDevice implements BlockDevice, BioEndIo {
    private static final VarHandle MAP;

    static {
        try {
            MAP = MethodHandles.lookup().findVarHandle(MappedDevice.class, "map", DmTable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One slot's cache of {@link DmTargetIo}s; owner-only, plain, padded on both sides. */
    @SuppressWarnings("unused")
    private static final class TioCache {
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
        DmTargetIo free;
        long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    }

    private final String name;
    /** {@code md->map}: the live table; read [acquire] under RCU, replaced [release] by {@link #swapTable}. */
    @SuppressWarnings("FieldMayBeFinal")
    private volatile DmTable map;
    private final Rcu rcu;
    /** {@code md->bs}: clones carry no pages of their own. */
    private final Bioset clones;
    private final TioCache[] tios;
    private final CssForward css;
    private final InjectPoint injectClone;
    private final InjectPoint injectMap;
    private final InjectPoint injectEndIo;
    /** Serialises table swaps ({@code md->suspend_lock}). */
    private final Object swapLock = new Object();

    /**
     * {@code dm_create} + {@code dm_swap_table(table)} + resume.
     *
     * @param nrCpus per-cpu slots of the submitters; {@code rcu} must have as many
     * @param css    how clones carry the source bio's cgroup (the dm-css-ref switch)
     * @param inject contention points at clone, map and end_io ({@link Injection#NONE}: none)
     */
    public MappedDevice(String name, DmTable table, int nrCpus, Rcu rcu, CssForward css, Injection inject) {
        this.name = Objects.requireNonNull(name, "name");
        this.map = Objects.requireNonNull(table, "table");
        this.rcu = Objects.requireNonNull(rcu, "rcu");
        if (rcu.nrCpus() < nrCpus) {
            throw new IllegalArgumentException(name + ": rcu has " + rcu.nrCpus() + " slots, the device " + nrCpus);
        }
        this.css = Objects.requireNonNull(css, "css");
        this.clones = new Bioset(nrCpus, 0);
        this.tios = new TioCache[nrCpus];
        for (int i = 0; i < nrCpus; i++) {
            tios[i] = new TioCache();
        }
        this.injectClone = inject.at(Inject.Stage.CLONE);
        this.injectMap = inject.at(Inject.Stage.MAP);
        this.injectEndIo = inject.at(Inject.Stage.END_IO);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long capacitySectors() {
        return live().sectors();
    }

    @Override
    public int logicalBlockSize() {
        return live().logicalBlockSize();
    }

    @Override
    public long maxDiscardSectors() {
        return live().maxDiscardSectors();
    }

    /** The live table now (a snapshot; the next bio may see a newer one). */
    public DmTable live() {
        return (DmTable) MAP.getAcquire(this);
    }

    /** {@code dm_submit_bio}: clone, map, submit below. Thread that owns {@code bio.cpu}. */
    @Override
    public void submitBio(Bio bio) {
        int cpu = bio.cpu;
        boolean top = (bio.flags & Bio.BIO_CLONED) == 0; // read before the bio may complete
        int token = rcu.readLock(cpu);
        DmTable t = (DmTable) MAP.getAcquire(this);
        DmTarget ti = Bio.bioCheck(bio, t.sectors(), t.logicalBlockSize()) ? t.findTarget(bio.sector) : null;
        if (ti == null || bio.endSector() > ti.begin() + ti.len()) {
            rcu.readUnlock(cpu, token);
            Bio.bioIoError(bio); // beyond the device, unaligned, or across a target boundary (no split here)
            return;
        }
        t.pendingInc(cpu);
        DmTargetIo tio = allocTio(cpu);
        tio.orig = bio;
        tio.table = t;
        tio.ti = ti;
        tio.dev = null;
        tio.perBio = 0;
        Bio clone = clones.allocClone(bio, cpu, this);
        clone.privateData = tio;
        tio.clone = clone;
        css.cloneAssociation(clone, bio, cpu);
        injectClone.hit(cpu);
        injectMap.hit(cpu);
        switch (ti.map(tio)) {
            case DmTarget.DM_MAPIO_REMAPPED -> tio.dev.submitBio(clone);
            case DmTarget.DM_MAPIO_SUBMITTED -> { }
            default -> Bio.bioIoError(clone); // DM_MAPIO_KILL
        }
        rcu.readUnlock(cpu, token);
        if (top) {
            rcu.quiescent(cpu); // outside every section of this stack: the bio left the top of it
        }
    }

    /** {@code clone_endio}: the clone is done below; complete the original. */
    @Override
    public void endIo(Bio clone) {
        DmTargetIo tio = (DmTargetIo) clone.privateData;
        int cpu = clone.cpu;
        tio.ti.endIo(tio);
        injectEndIo.hit(cpu);
        css.disassociate(clone, cpu);
        Bio orig = tio.orig;
        BlkStatus status = clone.status;
        DmTable t = tio.table;
        clones.free(clone);
        freeTio(tio, cpu);
        if (status != BlkStatus.OK) {
            orig.status = status;
        }
        t.pendingDec(cpu);
        Bio.bioEndio(orig);
    }

    private DmTargetIo allocTio(int cpu) {
        TioCache c = tios[cpu];
        DmTargetIo tio = c.free;
        if (tio == null) {
            tio = new DmTargetIo(); // warm-up only: as many as the slot keeps in flight
        } else {
            c.free = tio.next;
        }
        return tio;
    }

    private void freeTio(DmTargetIo tio, int cpu) {
        TioCache c = tios[cpu];
        tio.table = null; // a swapped-out table must not stay reachable from the cache; the rest is overwritten at the next alloc
        tio.next = c.free;
        c.free = tio;
    }

    /**
     * {@code dm_swap_table}: makes {@code next} live and returns the old table once no bio is in
     * flight on it (a grace period, after which no bio maps with the old table, then its pending
     * count drains), its targets destroyed. Bios keep flowing meanwhile, to {@code next}. Not from
     * a worker that is online in this device's RCU (it would wait for itself).
     */
    public DmTable swapTable(DmTable next) throws InterruptedException {
        Objects.requireNonNull(next, "next");
        synchronized (swapLock) {
            DmTable old = live();
            MAP.setRelease(this, next);
            rcu.synchronize();
            while (old.pending() != 0) {
                Thread.sleep(0, 100_000);
            }
            old.destroy();
            return old;
        }
    }

    /** Online in the stack's RCU, and every device below ({@link BlockDevice#cpuOnline}). Owner only. */
    @Override
    public void cpuOnline(int cpu) {
        if (!rcu.isOnline(cpu)) {
            rcu.online(cpu);
        }
        for (BlockDevice d : live().devices()) {
            d.cpuOnline(cpu);
        }
    }

    /** Every device below offline, then this one's RCU (if a lower mapped device sharing it has not). Owner only. */
    @Override
    public void cpuOffline(int cpu) {
        for (BlockDevice d : live().devices()) {
            d.cpuOffline(cpu);
        }
        if (rcu.isOnline(cpu)) {
            rcu.offline(cpu);
        }
    }

    /** Completions below come from polling the devices under the live table (e.g. a timer null_blk). */
    @Override
    public int poll(int cpu) {
        int n = 0;
        for (BlockDevice d : live().devices()) {
            n += d.poll(cpu);
        }
        return n;
    }

    /** Frees the clone bioset; nothing may be in flight. */
    public void close() {
        clones.close();
    }

    @Override
    public String toString() {
        return name + ": " + live();
    }
}
