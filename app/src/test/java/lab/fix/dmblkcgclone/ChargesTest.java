package lab.fix.dmblkcgclone;

import static lab.fix.HandWorked.near;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.analysis.fidelity.NoiseFloor;
import lab.engine.bench.DmBlkcgClone.Config;
import lab.engine.bench.DmBlkcgClone.Result;
import lab.engine.iosched.RequestQueue.Charge;
import lab.fix.dmblkcgclone.DmBlkcgClone.Weights;
import lab.fix.dmblkcgclone.ModelRuns.Point;
import org.junit.jupiter.api.Test;

/** The prediction from the counted charges, and the model's rounds looked up by point: ratios, spans, the A/A floor. */
class ChargesTest {
    private static final long MIB = 1 << 20;

    /** Writer a wrote 300 MiB and b 150 in the window at 1000:500; the disk charged {@code root}, {@code a}, {@code b} MiB. */
    private static Result measured(long root, long a, long b, boolean tagged) {
        Map<String, Charge> c = new LinkedHashMap<>();
        c.put("/", new Charge(root, root * MIB, 0));
        c.put("/a", new Charge(a, a * MIB, tagged ? a : 0));
        c.put("/b", new Charge(b, b * MIB, tagged ? b : 0));
        return new Result(new Config("transfer", "thin", "buffered", 1000, 500, 1000, 200, 500), 300 * MIB, 150 * MIB, 500_000_000L, c,
                List.of(), 0);
    }

    @Test
    void everyByteInTheWritersGroupsPredictsTheWeightsRatio() {
        // 298 + 151 MiB to a and b, tagged: the edges cut 2 of a's bios and add one of b's (99.3% and 100.7% own)
        Charges c = Charges.of(measured(0, 298, 151, true));
        assertEquals(2.0, c.predicted());
        assertEquals(298.0 / 449, c.a(), 1e-12);
        assertEquals(151.0 / 449, c.b(), 1e-12);
        assertEquals(0, c.root());
        assertEquals(298.0 / 300, c.ownA(), 1e-12);
        assertEquals(151.0 / 150, c.ownB(), 1e-12);
        assertEquals("tagged", c.how());
        assertEquals("by task", Charges.of(measured(0, 300, 150, false)).how(), "no association: charged to the submitting task");
        assertEquals(2.0, Charges.of(measured(4, 296, 150, true)).predicted(), "the root's 4 of 450 MiB: 0.9%, inside 1%");
    }

    @Test
    void everyByteInTheRootGroupPredictsOneAndAMixPredictsNothing() {
        Charges root = Charges.of(measured(450, 0, 0, false));
        assertEquals(1.0, root.predicted());
        assertEquals(1.0, root.root());
        assertEquals(0, root.ownA());
        assertNull(root.how(), "no bio charged to a or b");
        Charges mixed = Charges.of(measured(225, 150, 75, true));
        assertNull(mixed.predicted(), "half in the root group: no prediction");
        assertNull(Charges.of(measured(0, 450, 0, true)).predicted(), "all in one writer's group: no prediction");
        assertEquals("mixed", Charges.of(new Result(measured(0, 300, 150, true).config(), 300 * MIB, 150 * MIB, 500_000_000L,
                Map.of("/a", new Charge(300, 300 * MIB, 300), "/b", new Charge(150, 150 * MIB, 0)), List.of(), 0)).how());
    }

    @Test
    void roundsAgreeingGiveThePredictionAndDisagreeingGiveNone() {
        Point p = new Point("thin", "buffered", new Weights(1000, 500));
        ModelRuns agree = new ModelRuns(Map.of(1, List.of(measured(0, 300, 150, true)), 2, List.of(measured(0, 290, 150, true))));
        assertEquals(2.0, agree.predicted("transfer", p));
        ModelRuns differ = new ModelRuns(Map.of(1, List.of(measured(0, 300, 150, true)), 2, List.of(measured(450, 0, 0, false))));
        assertNull(differ.predicted("transfer", p));
        assertNull(differ.predicted("lost", p), "no such measurement");
    }

    /**
     * The model's rounds at thin, buffered, 1000:500, each round's ratio a's window bytes over b's, 50 increments each of
     * round(r × 4 MiB) over 4 MiB (4194304 bytes): {@code transfer} 2, 7969178/4194304 = 1.9000000954 (1.9 × 4 MiB =
     * 7969177.6, rounded) and 8808038/4194304 = 2.0999999046 (2.1 × 4 MiB = 8808038.4). Logs 0.6931471806, 0.6418539364
     * and 0.7419372993: mean 0.6923128054 (the estimate 1.9983319457), sd (2 df) 0.0500468982, h = t(0.975, 2) × sd/√3 =
     * 4.303 × 0.0500468982/1.7320508076 = 0.1243334215: [1.7646976701–2.2628978510]. {@code lost} 1, 4278190/4194304 =
     * 1.0199999809 and 4152361/4194304 = 0.9900000095: the estimate 1.0032560502. The first two rounds alone: no interval
     * (t(1) = 12.706 is never used).
     *
     * <p>The A/A at thin, buffered, 500:500: a's 5 spans of 41943040 bytes, b's 42781900 (10 × 4278190, +2%) in spans
     * 2-4 and 41104180 (10 × 4110418, −2%) in span 5 in round 1, the other way round in round 2, +2% in span 2 alone in
     * round 3, 41943040 in span 6: a's mean over b's 209715200/211392920 = 0.9920634996, 209715200/208037480 =
     * 1.0080645084 and 209715200/210554060 = 0.9960159387. Logs −0.0079681621, 0.0080321640 and −0.0039920175: mean
     * −0.0013093385 (the estimate 0.9986915183), sd 0.0083306773, h = 4.303 × 0.0083306773/√3 = 0.0206962198:
     * [0.9782347977–1.0195760272], its reach from 1 the lower end's, 0.0217652023.
     */
    @Test
    void theModelsRoundsGiveTheEstimatorAndTheAaFloorFromSubWindows() {
        ModelRuns two = new ModelRuns(Map.of(1, Fixture.round(1, 1000), 2, Fixture.round(2, 1000)));
        Point head = new Point("thin", "buffered", new Weights(1000, 500));
        assertEquals(2, two.ratio("transfer", head).rounds());
        assertFalse(two.ratio("transfer", head).hasInterval(), "2 rounds: no interval");
        assertEquals("2 rounds: no interval", two.ratio("transfer", head).noInterval());
        near(1.9493589178842523, two.ratio("transfer", head).value(), 1e-9, "√(2 × 1.9000000954), its value alone");
        assertFalse(two.floor("thin", "buffered").aa().hasInterval(), "2 rounds: no A/A interval either");
        ModelRuns m = new ModelRuns(Map.of(1, Fixture.round(1, 1000), 2, Fixture.round(2, 1000), 3, Fixture.round(3, 1000)));
        assertEquals(3, m.ratio("transfer", head).rounds());
        near(1.9983319456964332, m.ratio("transfer", head).value(), 1e-9, "∛(2 × 1.9000000954 × 2.0999999046)");
        near(1.7646976700590968, m.ratio("transfer", head).lo(), 1e-9, "three rounds: t with 2 df, 4.303");
        near(2.262897850971358, m.ratio("transfer", head).hi(), 1e-9, "three rounds: t with 2 df, 4.303");
        near(1.0032560502449779, m.ratio("lost", head).value(), 1e-9, "∛(1 × 1.0199999809 × 0.9900000095)");
        assertEquals(10, m.convergeMs("transfer", head).median(), "a linear timeline is at its ratio from the first sample");
        assertEquals(8, m.points().size(), "linear1 and thin x direct and buffered x 1000:500 and 500:500");
        assertEquals(new Point("linear1", "direct", new Weights(1000, 500)), m.points().getFirst());
        // the A/A's window, 200..700 ms, in 100 ms spans: b's 40 MiB +2%, +2%, +2%, -2%, 0 in round 1; a's 40 MiB each
        Result aa = m.byRound("transfer", new Point("thin", "buffered", new Weights(500, 500))).get(1);
        List<long[]> spans = ModelRuns.spans(aa);
        assertEquals(5, spans.size());
        assertEquals(40 * MIB, spans.get(0)[0]);
        assertEquals(Math.round(4 * MIB * 1.02) * 10, spans.get(0)[1]);
        assertEquals(Math.round(4 * MIB * 1.02) * 10, spans.get(2)[1]);
        assertEquals(Math.round(4 * MIB * 0.98) * 10, spans.get(3)[1]);
        assertEquals(40 * MIB, spans.get(4)[1]);
        assertEquals(Math.round(4 * MIB * 0.98) * 10, ModelRuns.spans(m.byRound("transfer", new Point("thin", "buffered",
                new Weights(500, 500))).get(2)).get(0)[1], "round 2: -2% in span 2");
        assertEquals(42781900 + 4 * 40 * MIB, ModelRuns.spans(m.byRound("transfer", new Point("thin", "buffered",
                new Weights(500, 500))).get(3)).stream().mapToLong(s -> s[1]).sum(), "round 3: +2% in span 2 alone");
        NoiseFloor f = m.floor("thin", "buffered");
        assertEquals(3, f.rounds());
        near(0.9986915182950046, f.aa().value(), 1e-9, "a's window mean over b's, not b's over a's, nor 1");
        near(0.9782347976970648, f.aa().lo(), 1e-9, "the A/A's lower end");
        near(1.0195760272098264, f.aa().hi(), 1e-9, "the A/A's upper end");
        assertEquals(0.0217652023029352, f.floor(), 1e-10, "the lower end's reach, not the upper's 0.0196");
        assertNull(m.floor("linear2", "buffered"), "no control there");
    }
}
