package lab.stress;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Per-cpu slots for the code jcstress runs outside the actors: state constructors and arbiters
 * run on the actor threads (new ones for each run), several at once, each over part of a batch.
 * A slot may be used by one thread at a time only (the owner rule of {@code lab.engine.sync}), so
 * such code borrows a free slot of {@code first} .. {@code first + count - 1} for the call and
 * gives it back. The compare-and-set that takes a slot pairs with the volatile store that gave it
 * back, so each borrower sees what the one before it left in the slot.
 */
final class SpareSlots {
    private final int first;
    private final AtomicIntegerArray busy;

    SpareSlots(int first, int count) {
        this.first = first;
        this.busy = new AtomicIntegerArray(count);
    }

    /** Borrows a free slot; spins while all are taken. */
    int take() {
        for (;;) {
            for (int i = 0; i < busy.length(); i++) {
                if (busy.get(i) == 0 && busy.compareAndSet(i, 0, 1)) {
                    return first + i;
                }
            }
            Thread.onSpinWait();
        }
    }

    /** Gives back a slot taken by {@link #take()}. */
    void give(int slot) {
        busy.set(slot - first, 0);
    }
}
