package lab.engine.iosched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import lab.engine.blkcg.Blkcg;
import lab.engine.blkcg.CssForward;
import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.Bioset;
import lab.engine.block.BlkStatus;
import lab.engine.block.BlockDevice;
import lab.engine.block.RamDisk;
import lab.engine.block.ReqOp;
import lab.engine.bufio.BufioLocking;
import lab.engine.count.SharedLines;
import lab.engine.dm.DmTable;
import lab.engine.dm.LinearStack;
import lab.engine.dm.MappedDevice;
import lab.engine.inject.Injection;
import lab.engine.sync.Rcu;
import lab.engine.thin.ThinPool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * dm-blkcg-clone's correctness: with {@code transfer} every bio that reaches the disk carries the
 * cgroup of the thread that issued the bio at the top, at every depth of dm-linear and through
 * a thin volume (whose provisioning writes the pool's worker issues); with {@code lost} none
 * carries any. Two issuers, in two cgroups, at once.
 */
class CloneTagTest {
    private static final int KIB64 = 64 << 10;
    private static final int NR_CPUS = 3;
    private static final int WORKER = 2;
    private static final int IOS = 200;

    /** Between the stack and the disk: what each bio carries, and which task submits it. */
    private static final class Recorder implements BlockDevice {
        final BlockDevice disk;
        final long half;
        /** issuer ("a" / "b", by the bio's region) -> carried cgroup name ("-": none) -> bios. */
        final Map<String, Map<String, AtomicInteger>> carried = new ConcurrentHashMap<>();
        /** the submitting task's cgroup name ("/": a kernel thread) -> bios. */
        final Map<String, AtomicInteger> submitters = new ConcurrentHashMap<>();

        Recorder(BlockDevice disk) {
            this.disk = disk;
            this.half = disk.capacitySectors() / 2;
        }

        @Override public String name() { return "recorder"; }
        @Override public long capacitySectors() { return disk.capacitySectors(); }
        @Override public int logicalBlockSize() { return 512; }
        @Override public int poll(int cpu) { return disk.poll(cpu); }

        @Override
        public void submitBio(Bio bio) {
            Bio top = bio;
            while (top.parent != null) {
                top = top.parent; // the issuer's own bio: its sector was never remapped
            }
            String issuer = top.sector < half ? "a" : "b";
            String tag = bio.blkcgAssociation instanceof Blkcg cg ? cg.name() : "-";
            carried.computeIfAbsent(issuer, k -> new ConcurrentHashMap<>()).computeIfAbsent(tag, k -> new AtomicInteger()).incrementAndGet();
            Blkcg task = Blkcg.current();
            submitters.computeIfAbsent(task == null ? "/" : task.name(), k -> new AtomicInteger()).incrementAndGet();
            disk.submitBio(bio);
        }

        int count(String issuer, String tag) {
            AtomicInteger n = carried.getOrDefault(issuer, Map.of()).get(tag);
            return n == null ? 0 : n.get();
        }
    }

    /** Issues IOS writes of 64 KiB in its own half, associated with its task's cgroup (bio_associate_blkg at submit), one at a time. */
    private static final class Issuer implements BioEndIo {
        final int cpu;
        final long start;
        volatile boolean done;
        int ok;

        Issuer(int cpu, long start) {
            this.cpu = cpu;
            this.start = start;
        }

        void run(BlockDevice top, Bioset bios, CssForward css) {
            top.cpuOnline(cpu);
            for (int i = 0; i < IOS; i++) {
                Bio bio = bios.alloc(cpu, this);
                bio.op = ReqOp.WRITE;
                bio.sector = start + (long) i * (KIB64 >>> 9);
                bio.size = KIB64;
                css.associate(bio, Blkcg.current(), cpu);
                done = false;
                top.submitBio(bio);
                while (!done) {
                    if (top.poll(cpu) == 0) {
                        LockSupport.parkNanos(10_000);
                    }
                }
                css.disassociate(bio, cpu);
                bios.free(bio);
            }
            top.cpuOffline(cpu);
        }

        @Override
        public void endIo(Bio bio) {
            if (bio.status == BlkStatus.OK) {
                ok++;
            }
            done = true;
        }
    }

    @ParameterizedTest
    @CsvSource({"transfer,linear1", "transfer,linear2", "transfer,linear3", "transfer,thin",
            "lost,linear1", "lost,linear2", "lost,linear3", "lost,thin"})
    void theDiskSeesTheIssuersCgroupOnlyWithTransfer(String variant, String stack) throws Exception {
        CssForward css = CssForward.of(variant);
        Rcu rcu = new Rcu(NR_CPUS);
        Blkcg root = Blkcg.root(css, rcu, SharedLines.NONE);
        Blkcg a = root.child("a", rcu, SharedLines.NONE);
        Blkcg b = root.child("b", rcu, SharedLines.NONE);
        RequestQueue disk = new RequestQueue("nullb0", 1L << 30, NR_CPUS, 20_000, 0, new Bfq(8192, 100_000));
        Recorder rec = new Recorder(disk);
        BlockDevice top;
        Runnable close;
        if (stack.equals("thin")) {
            RamDisk meta = new RamDisk("ram0", 4L << 20);
            ThinPool pool = new ThinPool(meta, rec, ThinPool.MIN_BLOCK_SECTORS, 256, BufioLocking.MUTEX, NR_CPUS, SharedLines.NONE);
            MappedDevice thin = new MappedDevice("thin", new DmTable(List.of(pool.createThin(0, rec.capacitySectors(), WORKER)), NR_CPUS),
                    NR_CPUS, rcu, css, Injection.NONE);
            pool.startWorker(WORKER);
            top = thin;
            close = () -> { thin.close(); pool.close(); meta.close(); };
        } else {
            LinearStack s = LinearStack.over(rec, Integer.parseInt(stack.substring(6)), NR_CPUS, rcu, css, Injection.NONE);
            top = s.top();
            close = s::close;
        }
        Bioset bios = new Bioset(NR_CPUS, KIB64);
        Issuer ia = new Issuer(0, 0);
        Issuer ib = new Issuer(1, rec.half);
        BlockDevice t = top;
        Thread ta = Thread.ofPlatform().start(() -> Blkcg.runAs(a, () -> ia.run(t, bios, css)));
        Thread tb = Thread.ofPlatform().start(() -> Blkcg.runAs(b, () -> ib.run(t, bios, css)));
        ta.join();
        tb.join();
        close.run();
        disk.close();
        bios.close();

        assertEquals(IOS, ia.ok);
        assertEquals(IOS, ib.ok);
        if (variant.equals("transfer")) {
            assertEquals(Map.of("/a", IOS), counts(rec, "a"), "what a's bios carried at the disk");
            assertEquals(Map.of("/b", IOS), counts(rec, "b"), "what b's bios carried at the disk");
        } else {
            assertEquals(Map.of("-", IOS), counts(rec, "a"), "what a's bios carried at the disk");
            assertEquals(Map.of("-", IOS), counts(rec, "b"), "what b's bios carried at the disk");
        }
        // who submitted them at the bottom: the issuers through dm-linear, the pool's worker (a kernel thread) through thin
        Map<String, Integer> by = new java.util.TreeMap<>();
        rec.submitters.forEach((k, v) -> by.put(k, v.get()));
        assertEquals(stack.equals("thin") ? Map.of("/", 2 * IOS) : Map.of("/a", IOS, "/b", IOS), by);
        assertSame(null, Blkcg.current());
        // every reference a bio took was let go: once killed, both cgroups are released
        a.kill();
        b.kill();
        for (long deadline = System.nanoTime() + 5_000_000_000L; !(a.released() && b.released()) && System.nanoTime() < deadline;) {
            Thread.sleep(1);
        }
        assertNull(a.released() && b.released() ? null : "a css is still held by a bio");
    }

    private static Map<String, Integer> counts(Recorder rec, String issuer) {
        Map<String, Integer> m = new java.util.TreeMap<>();
        rec.carried.getOrDefault(issuer, Map.of()).forEach((k, v) -> m.put(k, v.get()));
        return m;
    }
}
