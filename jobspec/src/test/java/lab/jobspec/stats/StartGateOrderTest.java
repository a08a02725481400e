package lab.jobspec.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import lab.jobspec.Job;
import lab.jobspec.JobFileParser;
import org.junit.jupiter.api.Test;

/** StartGate.runJobs: waiting jobs start when what they wait for has ended, with that time as t0. */
class StartGateOrderTest {

    /** A clone that sleeps {@code ms} and records when it started and ended. */
    static final class Timed implements StartGate.Clone {
        final String name;
        final long ms;
        final boolean failWarmUp;
        volatile long t0;
        volatile long ran = -1;
        volatile long ended = -1;
        final AtomicInteger warmed;

        Timed(String name, long ms, boolean failWarmUp, AtomicInteger warmed) {
            this.name = name;
            this.ms = ms;
            this.failWarmUp = failWarmUp;
            this.warmed = warmed;
        }

        @Override
        public String threadName() {
            return name;
        }

        @Override
        public void warmUp() {
            warmed.incrementAndGet();
            if (failWarmUp) {
                throw new IllegalStateException("no ring");
            }
        }

        @Override
        public void run(long t0) throws InterruptedException {
            this.t0 = t0;
            ran = System.nanoTime();
            Thread.sleep(ms);
            ended = System.nanoTime();
        }
    }

    private static List<Job> jobs(String text) throws Exception {
        return JobFileParser.parse(Path.of("g.fio"), text).jobs();
    }

    @Test
    void stonewallStartsAfterEveryEarlierCloneEnds() throws Exception {
        // a: 2 clones of 150 and 250 ms; b (wait_for=a); c stonewall; d after c without stonewall
        List<Job> js = jobs("[global]\nsize=1m\n[a]\nnumjobs=2\n[x]\n[b]\nwait_for=a\n[c]\nstonewall\n[d]\n");
        AtomicInteger warmed = new AtomicInteger();
        List<Timed> clones = new ArrayList<>();
        long[] ms = {150, 250, 50, 100, 60, 40};
        String[] names = {"a.0", "a.1", "x.0", "b.0", "c.0", "d.0"};
        for (int i = 0; i < ms.length; i++) {
            clones.add(new Timed(names[i], ms[i], false, warmed));
        }
        StartGate.Started s = StartGate.runJobs(js, clones);
        Timed a0 = clones.get(0), a1 = clones.get(1), x = clones.get(2), b = clones.get(3), c = clones.get(4),
                d = clones.get(5);
        assertEquals(6, warmed.get());
        // a and x start at the barrier
        assertEquals(s.t0(), a0.t0);
        assertEquals(s.t0(), x.t0);
        // b waits for both of a's clones, and its t0 is that moment, not the barrier's
        assertTrue(b.ran >= a1.ended && b.ran >= a0.ended, "b started before a ended");
        assertTrue(b.t0 >= a1.ended, "b's t0 is the end of a");
        assertEquals(s.jobStart()[2], b.t0);
        // c and d wait for a, x and b; d starts with c, not after it
        long lastBefore = Math.max(Math.max(a0.ended, a1.ended), Math.max(x.ended, b.ended));
        assertTrue(c.ran >= lastBefore, "stonewall job started before an earlier job ended");
        assertTrue(d.ran >= lastBefore, "job after a stonewall started before the stonewall");
        assertEquals(c.t0, d.t0);
        assertTrue(d.ran < c.ended, "d waited for c: only a stonewall waits for the jobs before it");
        // the timeline: a ~250 ms, b ~100 ms after it, c ~60 ms
        long bStartMs = (s.jobStart()[2] - s.t0()) / 1_000_000;
        long cStartMs = (s.jobStart()[3] - s.t0()) / 1_000_000;
        assertTrue(bStartMs >= 250 && bStartMs < 2000, "b started " + bStartMs + " ms in");
        assertTrue(cStartMs >= 350 && cStartMs < 4000, "c started " + cStartMs + " ms in");
    }

    @Test
    void aWarmUpFailureOfALaterJobStillMeansNoCloneRan() throws Exception {
        List<Job> js = jobs("[global]\nsize=1m\n[a]\n[b]\nstonewall\n");
        AtomicInteger warmed = new AtomicInteger();
        Timed a = new Timed("a.0", 10, false, warmed);
        Timed b = new Timed("b.0", 10, true, warmed);
        StartGate.CloneFailedException e = assertThrows(StartGate.CloneFailedException.class,
                () -> StartGate.runJobs(js, List.of(a, b)));
        assertTrue(e.beforeStart());
        assertEquals(-1, a.ran, "a ran though b could not set up");
    }

    @Test
    void clonesMustMatchNumjobs() throws Exception {
        List<Job> js = jobs("[a]\nsize=1m\nnumjobs=2\n");
        AtomicInteger w = new AtomicInteger();
        assertThrows(IllegalArgumentException.class,
                () -> StartGate.runJobs(js, List.of(new Timed("a.0", 1, false, w))));
    }
}
