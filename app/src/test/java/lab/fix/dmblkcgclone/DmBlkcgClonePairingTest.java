package lab.fix.dmblkcgclone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.engine.bench.DmBlkcgClone.Config;
import lab.fix.Fixes;
import lab.fix.Pairing;
import lab.fix.Steps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pairing's matrix and order, its registration, and the note it leaves instead of flamegraphs. */
class DmBlkcgClonePairingTest {
    @TempDir
    Path tmp;

    @Test
    void theVariantsRunSideBySideTheirOrderAlternatingFromRoundToRound() {
        List<Config> r1 = DmBlkcgClonePairing.matrix(DmBlkcgClone.SHORT_STACKS, DmBlkcgClone.QUICK_WEIGHTS, 1000, DmBlkcgClone.QUICK, 1);
        List<Config> r2 = DmBlkcgClonePairing.matrix(DmBlkcgClone.SHORT_STACKS, DmBlkcgClone.QUICK_WEIGHTS, 1000, DmBlkcgClone.QUICK, 2);
        int paths = DmBlkcgClone.PATHS.size();
        assertEquals(2 * paths * 2 * 2, r1.size(), "2 stacks x every path x 2 weight pairs x 2 variants");
        assertEquals(new Config("lost", "linear1", "direct", 1000, 500, 1000, 200, 500), r1.get(0));
        assertEquals(new Config("transfer", "linear1", "direct", 1000, 500, 1000, 200, 500), r1.get(1));
        assertEquals("transfer", r2.get(0).variant());
        assertEquals("lost", r2.get(1).variant());
        assertEquals(new Config("transfer", "thin", "buffered", 500, 500, 1000, 200, 500), r1.getLast());
        List<Config> full = DmBlkcgClonePairing.matrix(DmBlkcgClone.STACKS, DmBlkcgClone.WEIGHTS, 1000, DmBlkcgClone.FULL, 1);
        assertEquals(4 * paths * 3 * 2, full.size());
        assertEquals(1300, full.getFirst().rampMs() + full.getFirst().runMs());
    }

    @Test
    void itIsRegisteredWithItsScenarioAndLeavesANoteForTheFlamegraphs() throws Exception {
        Pairing p = Fixes.byId("dm-blkcg-clone").orElseThrow().pairing();
        assertEquals("dm-blkcg-clone", p.fixId());
        assertEquals("dm-blkcg-clone", p.kernelScenario());
        assertTrue(Fixes.pairable().contains("dm-blkcg-clone"));
        assertTrue(p.jmhSettings(true).startsWith("no JMH: the engine's experiment lab.engine.bench.DmBlkcgClone, in process; per"
                + " measurement 200 ms of ramp, then a 500 ms window"), p.jmhSettings(true));
        assertTrue(p.jmhSettings(false).contains("300 ms of ramp, then a 1000 ms window"), p.jmhSettings(false));
        Path fg = tmp.resolve("flamegraphs/dm-blkcg-clone");
        PrintStream out = new PrintStream(new ByteArrayOutputStream());
        p.flamegraphs(new Pairing.Ctx(tmp, tmp.resolve("raw/dm-blkcg-clone"), fg, true, List.of(1), 1, 0, new Steps(tmp, out), out));
        assertTrue(Files.readString(fg.resolve(DmBlkcgCloneRaw.FLAMEGRAPH_NOTE)).startsWith("No CPU flamegraph for dm-blkcg-clone: the"
                + " model's threads"));
        assertEquals(1, Files.list(fg).count(), "the note alone");
    }
}
