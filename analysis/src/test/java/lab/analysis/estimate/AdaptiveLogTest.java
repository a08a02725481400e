package lab.analysis.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * adaptive.json as the estimation stage and the notebook read it: a log of the sequential design
 * names its pilot; a log from before it (rounds added until the running interval looked narrow) is
 * read with its first max(3, own rounds) rounds as the pilot, which that rule always ran, and its
 * logged intervals (the rule's own, too narrow) are not printed.
 */
class AdaptiveLogTest {
    /** A log as the lab wrote it before 2026-12-07: no design fields. */
    private static final String OLD = """
            {"trial": "dmcss-cal", "threads": 2, "target": 0.05, "budgetS": 30, "maxRounds": 24,
             "rounds": [{"round": 2, "ratio": {"value": 1.026, "ci95": [0.985, 1.069], "rounds": 2}, "aa": null, "halfWidth": 0.04, "seconds": 9},
                        {"round": 3, "ratio": {"value": 1.026, "ci95": [0.985, 1.069], "rounds": 3}, "aa": null, "halfWidth": 0.04, "seconds": 9},
                        {"round": 4, "ratio": {"value": 1.026, "ci95": [0.985, 1.069], "rounds": 4}, "aa": null, "halfWidth": 0.04, "seconds": 9}],
             "stopped": "reached"}
            """;

    @Test
    void aLogFromBeforeTheDesignIsReadWithItsFirstThreeRoundsAsThePilot(@TempDir Path raw) throws Exception {
        Files.writeString(raw.resolve(AdaptiveLog.FILE), OLD);
        AdaptiveLog log = AdaptiveLog.read(raw);
        assertFalse(log.designed());
        assertEquals(List.of(1, 2, 3), List.copyOf(log.pilotRounds(new TreeSet<>(List.of(1, 2, 3, 4)))),
                "one own round, so the first three: the old rule never stopped under three");
        String d = log.describe("dm-css-ref");
        assertEquals("`dm-css-ref`: 3 headline round(s) added at 2 threads before the sequential design, 4 in all; stopped: its running"
                + " interval within ±5% (a rule that under-covers; re-read here with the first rounds as Stein's pilot).", d);
        assertFalse(d.contains("0.985"), "the rule's own interval is not the one the notebook reads");
    }

    @Test
    void aLogWithOwnRoundsBeyondThreeKeepsThemAllAsThePilot(@TempDir Path raw) throws Exception {
        Files.writeString(raw.resolve(AdaptiveLog.FILE), OLD.replace("\"round\": 2", "\"round\": 6").replace("\"round\": 3", "\"round\": 7")
                .replace("\"round\": 4", "\"round\": 8"));
        assertEquals(List.of(1, 2, 3, 4, 5), List.copyOf(AdaptiveLog.read(raw).pilotRounds(new TreeSet<>(List.of(1, 2, 3, 4, 5, 6, 7, 8)))));
    }

    @Test
    void aDesignedLogSaysItsPilotItsCountAndWhyItStopped(@TempDir Path raw) throws Exception {
        AdaptiveLog log = new AdaptiveLog("t", 2, 0.02, 900, 24, List.of(1, 2, 3, 4, 5, 6, 7, 8), 0.0161, 7, Stein.halfWidth(0.02), 15,
                List.of(new AdaptiveLog.Round(15, Map.of("value", 1.01, "ci95", List.of(1.002, 1.018), "rounds", 15, "df", 7), null,
                        0.008, 10)), AdaptiveLog.PLANNED);
        log.write(raw);
        AdaptiveLog back = AdaptiveLog.read(raw);
        assertTrue(back.designed());
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8), List.copyOf(back.pilotRounds(new TreeSet<>(List.of(1, 2, 3)))));
        // h = ln(1.02)/2 = 0.0099016; exp(h) - 1 = 0.9951%, printed to two decimals
        assertEquals("`f`: Stein's two-stage design at 2 threads: a pilot of 8 rounds (log spread 0.0161, 7 df) asked for 15 in all for a"
                + " half-width of ±1.00% (margin ±2%); all 15 ran: 1.010 [1.002–1.018].", back.describe("f"));
    }
}
