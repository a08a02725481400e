package lab.engine.count;

/**
 * The handoffs of one shared line: the model's HITM. The structure calls {@link #write()} beside
 * each operation that writes the line (an atomic read-modify-write, a compare-and-set, successful
 * or not, a store); the tracker keeps the line's last writer beside it and counts one handoff
 * each time a write finds another thread's id there. The first write to a fresh line counts none.
 * Fetched once, at construction ({@link SharedLines#handoffs}), and
 * kept in a final field; {@link SharedLines#NONE}'s does nothing and stores nothing.
 */
public abstract class Handoffs {
    /** Only this package makes them: {@link SharedLines#NONE}'s and {@link Contention}'s. */
    Handoffs() {
    }

    /** The calling thread writes the line. */
    public abstract void write();
}
