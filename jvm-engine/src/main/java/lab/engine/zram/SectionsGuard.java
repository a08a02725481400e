package lab.engine.zram;

/*
 * The lab kernel's zram.lab_init_lock_count N (6.1/zram-init-lock.patch,
 * zram_lab_lock): N-1 extra read sections, each entered and left back to
 * back, before the one held across the I/O; never nested. The same for every
 * guard it wraps (rwsem: N down_read/up_read pairs on init_lock; srcu: N
 * srcu_read_lock/unlock pairs), as the switch's count is for both its modes.
 * Chosen when the device is made (Zram: no wrapper at N = 1), never tested
 * per I/O.
 *
 * Where the model simplifies: each extra section is the guard's whole enter,
 * so it also reads init_done (a read-mostly flag; the patch's extra sections
 * do not look at anything), and an extra section that finds the device not
 * initialised fails the I/O at once.
 */

/** {@code sections - 1} extra read sections, entered and left, before the guard's own. */
final class SectionsGuard implements MetaGuard {
    private final MetaGuard guard;
    private final int extra;

    SectionsGuard(MetaGuard guard, int sections) {
        if (sections < 2 || sections > 1024) {
            throw new IllegalArgumentException("sections " + sections + " (2..1024; 1 needs no wrapper)");
        }
        this.guard = guard;
        this.extra = sections - 1;
    }

    @Override
    public int enter(int cpu) {
        for (int i = 0; i < extra; i++) {
            int token = guard.enter(cpu);
            if (token < 0) {
                return token;
            }
            guard.exit(cpu, token);
        }
        return guard.enter(cpu);
    }

    @Override
    public void exit(int cpu, int token) {
        guard.exit(cpu, token);
    }

    @Override
    public void beginReset() {
        guard.beginReset();
    }

    @Override
    public void endReset() {
        guard.endReset();
    }

    @Override
    public String toString() {
        return "SectionsGuard[" + (extra + 1) + " x " + guard + "]";
    }
}
