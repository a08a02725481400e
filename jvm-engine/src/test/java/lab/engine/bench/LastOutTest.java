package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.TearDown;

/** The last worker out frees a trial's stack, once; the stacks that need it leave JMH's trial teardown alone. */
class LastOutTest {
    @Test
    void theLastWorkerOutFreesTheStackOnce() {
        AtomicInteger freed = new AtomicInteger();
        LastOut out = new LastOut(freed::incrementAndGet);
        out.enter();
        out.enter();
        out.leave();
        assertEquals(0, freed.get(), "one worker still online");
        out.leave();
        assertEquals(1, freed.get(), "the last one out frees");
        out.release();
        assertEquals(1, freed.get(), "a teardown by hand after the workers frees nothing twice");
    }

    @Test
    void aStackWithoutWorkersIsFreedByHand() {
        AtomicInteger freed = new AtomicInteger();
        LastOut out = new LastOut(freed::incrementAndGet);
        out.release();
        out.release();
        assertEquals(1, freed.get());
    }

    /**
     * The shared states whose freeing takes over 1 ms have no {@code @TearDown}: JMH's would leave
     * every other worker asleep for 1024 ms ({@link LastOut}).
     */
    @Test
    void slowStacksHaveNoJmhTeardown() {
        for (Class<?> c : List.of(DmCssRef.Stack.class, ThinBufioLock.Stack.class, PartAcct.Disk.class)) {
            for (Method m : c.getDeclaredMethods()) {
                assertEquals(null, m.getAnnotation(TearDown.class), c.getName() + "." + m.getName());
            }
        }
    }

    /** Two workers of a real DmCssRef stack: the first out leaves it working for the second; the second frees it. */
    @Test
    void aRealStackOutlivesItsFirstWorker() {
        DmCssRef.Stack s = new DmCssRef.Stack();
        s.variant = "percpu";
        s.depth = 1;
        s.device = "ram";
        s.inject = "none";
        s.setUp(2, ExampleJob.load(DmCssRef.EXAMPLE, List.of()), lab.engine.count.SharedLines.NONE);
        DmCssRef.Worker a = new DmCssRef.Worker();
        DmCssRef.Worker b = new DmCssRef.Worker();
        a.setUp(s);
        b.setUp(s);
        DmCssRef bench = new DmCssRef();
        bench.io(s, a);
        a.tearDown();
        for (int i = 0; i < 100; i++) {
            bench.io(s, b);
        }
        assertEquals(100, b.completed, "the stack still serves the worker online");
        b.tearDown();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> bench.io(s, b),
                "freed: its bioset's memory is gone");
    }
}
