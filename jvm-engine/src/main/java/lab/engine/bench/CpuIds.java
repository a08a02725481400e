package lab.engine.bench;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands each JMH thread of a trial its own slot index, its "cpu" for per-cpu structures, as
 * each kernel worker runs on its own CPU. At most {@code max} threads.
 */
final class CpuIds {
    private final AtomicInteger next = new AtomicInteger();
    private final int max;

    CpuIds(int max) {
        this.max = max;
    }

    int take() {
        int cpu = next.getAndIncrement();
        if (cpu >= max) {
            throw new IllegalStateException("more than " + max + " threads");
        }
        return cpu;
    }
}
