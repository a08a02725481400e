package lab.engine.block;

import java.util.ArrayList;
import java.util.List;

/**
 * Test device: keeps every bio it is given until the test completes it, so accounting can be
 * checked with I/Os in flight across ticks of a manual {@link Jiffies}. Single-threaded.
 */
final class HeldDevice implements BlockDevice {
    final List<Bio> held = new ArrayList<>();

    @Override
    public String name() {
        return "held0";
    }

    @Override
    public long capacitySectors() {
        return 1 << 20;
    }

    @Override
    public int logicalBlockSize() {
        return 512;
    }

    @Override
    public void submitBio(Bio bio) {
        held.add(bio);
    }

    /** Ends {@code bio} (held) with OK. */
    void complete(Bio bio) {
        if (!held.remove(bio)) {
            throw new IllegalStateException("not held: " + bio);
        }
        Bio.bioEndio(bio);
    }
}
