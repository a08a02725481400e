package lab.fix.zraminitlock;

import lab.fix.FixUnit;
import lab.fix.Pairing;
import lab.notebook.Fix;
import lab.notebook.Section;

/** zram-init-lock (seed 001_8702db15985e6798.txt): zram drops init_lock (down_read per I/O) from the I/O path. */
public final class ZramInitLock implements FixUnit {
    public static final Fix FIX = new Fix("zram-init-lock", "zram drops init_lock (down_read per I/O) from the I/O path",
            "001_8702db15985e6798.txt", "SRCU / rwsem throughput at 4 workers (randrw)", 1.023,
            "fio randread / randwrite / randrw on 1 GiB zram, 4 CPUs, perf stat -r 10: SRCU vs rwsem"
                    + " -0.63% (randread), +1.24% (randwrite), +2.3% (randrw): \"marginal\"");

    @Override
    public Fix fix() {
        return FIX;
    }

    @Override
    public Pairing pairing() {
        return new ZramInitLockPairing();
    }

    @Override
    public Section section() {
        return new ZramInitLockSection();
    }
}
