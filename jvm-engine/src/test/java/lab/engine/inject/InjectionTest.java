package lab.engine.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import lab.engine.count.LineTally;
import lab.engine.count.SharedLines;
import lab.engine.sync.Workers;
import lab.jobspec.Inject;
import org.junit.jupiter.api.Test;

class InjectionTest {

    @Test
    void aStageNobodyAskedForDoesNothing() {
        Injection i = new Injection(Inject.parse("clone:atomic"), 1, SharedLines.NONE);
        for (Inject.Stage s : Inject.Stage.values()) {
            if (s != Inject.Stage.CLONE) {
                assertSame(InjectPoint.NONE, i.at(s), s.id());
            }
        }
        assertTrue(i.needsDm());
        assertFalse(new Injection(Inject.parse("submit:atomic,complete:mutex"), 1, SharedLines.NONE).needsDm());
        assertEquals("none", Injection.NONE.toString());
    }

    /** Each kind does its operation COUNT times, counted under its site and kind; percpu on no shared line. */
    @Test
    void eachKindCountsItsOperations() {
        LineTally tally = new LineTally();
        Injection i = new Injection(Inject.parse("clone:atomic:3,clone:cmpxchg,map:mutex:2,end_io:rwsem-read,submit:percpu:5"), 1, tally);
        for (int n = 0; n < 10; n++) {
            for (Inject.Stage s : Inject.Stage.values()) {
                i.at(s).hit(0);
            }
        }
        assertEquals(Map.of("inject.line", Map.of("rmw", 30L, "cas", 10L), "inject.mutex", Map.of("mutex", 20L),
                "inject.rwsem", Map.of("rwsem-read", 10L)), tally.snapshot());
        assertEquals(30, i.lineValue(), "the cmpxchg changes nothing; the atomics add");
    }

    /** The atomic points of many threads meet on one word: no increment is lost. */
    @Test
    void atomicPointsShareOneWord() throws Exception {
        Injection i = new Injection(Inject.parse("submit:atomic,end_io:atomic:2"), 4, SharedLines.NONE);
        Workers.run(4, cpu -> {
            for (int n = 0; n < 50_000; n++) {
                i.at(Inject.Stage.SUBMIT).hit(cpu);
                i.at(Inject.Stage.END_IO).hit(cpu);
            }
        });
        assertEquals(4L * 50_000 * 3, i.lineValue());
    }
}
