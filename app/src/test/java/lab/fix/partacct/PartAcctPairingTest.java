package lab.fix.partacct;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PartAcctPairingTest {

    @Test
    void jmhIncludesMatchOneBenchmarkEach() {
        java.util.function.BiPredicate<String, String> runs = (regex, name) -> java.util.regex.Pattern.compile(regex).matcher(name).find();
        assertTrue(runs.test(PartAcctRaw.IO, "lab.engine.bench.PartAcct.io"));
        assertFalse(runs.test(PartAcctRaw.IO, "lab.engine.bench.PartInFlightSum.sum"));
        assertTrue(runs.test(PartAcctRaw.SUM, "lab.engine.bench.PartInFlightSum.sum"));
        assertFalse(runs.test(PartAcctRaw.SUM, "lab.engine.bench.PartAcct.io"));
    }
}
