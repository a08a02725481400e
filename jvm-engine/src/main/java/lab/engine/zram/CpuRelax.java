package lab.engine.zram;

/**
 * The spin of the model's spinlocks (zsmalloc's class lock, zram's slot bit lock):
 * {@code cpu_relax()}, which is {@link Thread#onSpinWait()} (PAUSE on x86).
 *
 * <p>Where the model differs: a kernel spinner never waits for a preempted holder, because
 * spinlocks disable preemption. A JVM thread holding one can be descheduled, and on a machine with
 * fewer cores than workers the spinners would then burn whole time slices; so every
 * {@value #SPINS_PER_YIELD} rounds the spinner yields its core. In the uncontended and briefly
 * contended cases that the benchmark measures the spin never gets that far.
 */
final class CpuRelax {
    static final int SPINS_PER_YIELD = 1024;

    private CpuRelax() {
    }

    /** One round of spinning; returns the next round. */
    static int cpuRelax(int round) {
        if ((round & (SPINS_PER_YIELD - 1)) == SPINS_PER_YIELD - 1) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
        return round + 1;
    }
}
