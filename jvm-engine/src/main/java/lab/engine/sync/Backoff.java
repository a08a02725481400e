package lab.engine.sync;

import java.util.concurrent.locks.LockSupport;

/**
 * How every slow path here waits for a condition another thread will make
 * true: spin briefly (the kernel's optimistic spin), then yield the core, then
 * sleep in growing steps up to {@value #MAX_PARK_NS} ns. The sleep is what
 * keeps eight waiters on two cores from starving the thread they wait for.
 *
 * <p>Usage: {@code for (int round = 0; !condition(); ) round = Backoff.pause(round);}
 */
public final class Backoff {
    static final int SPINS = 64;
    static final int YIELDS = 16;
    static final long MAX_PARK_NS = 1_000_000;

    private Backoff() {
    }

    /** Waits once, by an amount that grows with {@code round}; returns the next round. */
    public static int pause(int round) {
        if (round < SPINS) {
            Thread.onSpinWait();
        } else if (round < SPINS + YIELDS) {
            Thread.yield();
        } else {
            int step = Math.min(round - SPINS - YIELDS, 10);
            LockSupport.parkNanos(Math.min(MAX_PARK_NS, 1_000L << step));
        }
        return round == Integer.MAX_VALUE ? round : round + 1;
    }

    /** True once the spinning phase is over (the owner is probably not running). */
    public static boolean spunOut(int round) {
        return round >= SPINS;
    }
}
