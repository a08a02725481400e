package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeySuggestionTest {
    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource({"iodepth, iodepth, 0", "iodepht, iodepth, 1", "norandomap, norandommap, 1", "size, Size, 1",
            "ramptime, ramp_time, 1", "abc, '', 3", "'', ab, 2", "ca, abc, 3"})
    void distanceCountsInsertsDeletesSubstitutionsAndSwaps(String a, String b, int edits) {
        assertEquals(edits, KeySuggestion.distance(a, b));
        assertEquals(edits, KeySuggestion.distance(b, a));
    }

    @Test
    void longerKeysMayHaveMoreEdits() {
        assertEquals(2, KeySuggestion.limit("bs"));
        assertEquals(2, KeySuggestion.limit("numjob"));
        assertEquals(3, KeySuggestion.limit("norandomap"));
        assertEquals(7, KeySuggestion.limit("frobnicate_everything"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"norandomap, norandommap", "Size, size", "basens, base_ns", "write_lat_logs, write_lat_log",
            "zonemod, zonemode"})
    void aNearKeyIsSuggested(String typo, String meant) {
        assertEquals(Optional.of(meant), KeySuggestion.nearest(typo));
    }

    @ParameterizedTest
    @CsvSource({"xyzzy", "sideways", "frobnicate_everything", "io_uring"})
    void aKeyFarFromEveryKnownOneGetsNone(String key) {
        assertEquals(Optional.empty(), KeySuggestion.nearest(key));
    }
}
