package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lab.engine.block.AcctMode;
import lab.engine.sync.PrimitiveKind;
import lab.engine.zram.GuardKind;
import org.junit.jupiter.api.Test;

class VariantsTest {

    @Test
    void aControlIsTheIdWithTheSuffixAndRunsTheId() {
        assertEquals("atomic~aa", Variants.control("atomic"));
        assertEquals("atomic", Variants.id("atomic~aa"));
        assertEquals("atomic", Variants.id("atomic"));
        assertEquals("percpu-ref+percpu-inflight", Variants.id(Variants.control("percpu-ref+percpu-inflight")));
        assertTrue(Variants.isControl("rwsem~aa"));
        assertFalse(Variants.isControl("rwsem"));
        assertFalse(Variants.isControl("~aa"), "the suffix alone names nothing");
        assertEquals("~aa", Variants.id("~aa"));
        assertThrows(IllegalArgumentException.class, () -> Variants.control("atomic~aa"), "no control of a control");
        assertThrows(IllegalArgumentException.class, () -> Variants.control(""));
        assertEquals("atomic~aa", Variants.id("atomic~aa~aa"), "one suffix is stripped: the engine then refuses the rest");
    }

    /** Every engine id of every benchmark has a control that resolves back to it. */
    @Test
    void everyEngineIdHasAControl() {
        for (String id : AcctMode.ids()) {
            assertEquals(AcctMode.of(id), AcctMode.of(Variants.id(Variants.control(id))));
        }
        for (GuardKind g : GuardKind.values()) {
            assertEquals(g, GuardKind.of(Variants.id(Variants.control(g.cliName()))));
        }
        for (String id : PrimitiveKind.ids()) {
            assertEquals(PrimitiveKind.of(id), PrimitiveKind.of(Variants.id(Variants.control(id))));
        }
    }

    /** The benchmarks take a control as their variant and run its model. */
    @Test
    void benchmarksAcceptAControl() {
        Primitives.Shared s = new Primitives.Shared();
        s.primitive = "cas-refcount~aa";
        s.line = "shared";
        s.gapNs = 0;
        s.setUp();
        assertEquals(PrimitiveKind.CAS_REFCOUNT, s.kind);
    }
}
