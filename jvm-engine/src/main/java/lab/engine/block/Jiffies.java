package lab.engine.block;

import java.util.concurrent.locks.LockSupport;
import lab.engine.sync.PaddedLong;

/*
 * The kernel's tick counter, jiffies (kernel/time/timer.c, include/linux/jiffies.h).
 *
 * The kernel's tick interrupt adds one to a global word HZ times a second;
 * block accounting reads it with a plain load on every I/O (blk_account_io_*,
 * part_round_stats, update_io_ticks) and does its per-tick work when the value
 * it reads differs from the partition's stamp. So the cost the part-acct
 * argument is about follows the real clock: once per 1/HZ s, whatever the
 * I/O rate.
 *
 * The model does the same with a ticker thread: it sleeps until the next tick
 * boundary and then stores the tick number with a release (the single writer,
 * like the timer interrupt on the timekeeping CPU). Readers load it with
 * getOpaque (READ_ONCE): its cache line is written once per tick, so each
 * tick costs every reader one miss, as in the kernel. The value is computed
 * from System.nanoTime() since the start, never incremented, so a late wake-up
 * (timer slack, a busy core) delays a tick but loses none.
 *
 * A manual clock (manual(hz)) has no thread: a test sets the time with
 * advance(), so accounting arithmetic can be checked tick by tick.
 */

/** {@code jiffies}: a tick counter advanced {@code hz} times a second, by a ticker thread or by hand. */
public final class Jiffies implements AutoCloseable {
    /** Ticks per second: CONFIG_HZ. */
    private final int hz;
    /** The tick count; written by the ticker (or advance()), read by everyone. */
    private final PaddedLong jiffies = new PaddedLong(0);
    /** The ticker, or null for a manual clock. */
    private final Thread ticker;
    private volatile boolean stopped;

    private Jiffies(int hz, boolean running) {
        if (hz < 1 || hz > 10_000) {
            throw new IllegalArgumentException("HZ must be in 1..10000: " + hz);
        }
        this.hz = hz;
        if (running) {
            ticker = Thread.ofPlatform().daemon().name("jiffies-" + hz + "hz").unstarted(this::tick);
            ticker.start();
        } else {
            ticker = null;
        }
    }

    /** A clock whose ticker thread advances it {@code hz} times a second until {@link #close}. */
    public static Jiffies start(int hz) {
        return new Jiffies(hz, true);
    }

    /** A clock that stays at 0 until {@link #advance} moves it (tests). */
    public static Jiffies manual(int hz) {
        return new Jiffies(hz, false);
    }

    /** {@code READ_ONCE(jiffies)}. */
    public long now() {
        return jiffies.getOpaque();
    }

    /** CONFIG_HZ. */
    public int hz() {
        return hz;
    }

    /** {@code jiffies_to_msecs()}. */
    public long toMillis(long ticks) {
        return ticks * 1000 / hz;
    }

    /** Moves a manual clock {@code ticks} forward. */
    public void advance(long ticks) {
        if (ticker != null) {
            throw new IllegalStateException("a running clock is advanced by its ticker only");
        }
        jiffies.setRelease(jiffies.getPlain() + ticks);
    }

    /** The timer interrupt: store the tick number at each tick boundary. */
    private void tick() {
        long origin = System.nanoTime();
        long tickNs = 1_000_000_000L / hz;
        long n = 0;
        while (!stopped) {
            long elapsed = System.nanoTime() - origin;
            long due = elapsed / tickNs;
            if (due != n) {
                n = due;
                jiffies.setRelease(n); // pairs with the readers' getOpaque: a newer tick, never an older one
            }
            LockSupport.parkNanos((n + 1) * tickNs - elapsed);
        }
    }

    /** Stops the ticker (a manual clock has none). */
    @Override
    public void close() {
        stopped = true;
        if (ticker != null) {
            LockSupport.unpark(ticker);
            try {
                ticker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "jiffies=" + now() + " (HZ=" + hz + ")";
    }
}
