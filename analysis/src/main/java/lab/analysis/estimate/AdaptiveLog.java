package lab.analysis.estimate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a fix's adaptive headline rounds did, {@code raw/<fix>/adaptive.json}: the headline cell's
 * trial and thread count, the target half-width and time budget, the headline ratio's and the
 * A/A's estimates after each added round, and why the rounds stopped ({@link #REACHED},
 * {@link #BUDGET}, {@link #LIMIT}). Written by {@code pair}, read by the notebook.
 *
 * @param rounds  one entry per added round (none where the run's own rounds already reached it)
 * @param stopped why no round more was added
 */
public record AdaptiveLog(String trial, int threads, double target, long budgetS, int maxRounds, List<Round> rounds, String stopped) {
    public static final String FILE = "adaptive.json";
    public static final String REACHED = "reached";
    public static final String BUDGET = "budget";
    public static final String LIMIT = "limit";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** One added round: the headline ratio's and the A/A's estimates after it ({@link Estimate#json}), its half-width, its seconds. */
    public record Round(int round, Map<String, Object> ratio, Map<String, Object> aa, Double halfWidth, double seconds) {}

    public void write(Path fixRaw) throws IOException {
        JSON.writeValue(fixRaw.resolve(FILE).toFile(), this);
    }

    /** The log a run wrote, or null (a run made before adaptive rounds). */
    public static AdaptiveLog read(Path fixRaw) throws IOException {
        Path f = fixRaw.resolve(FILE);
        return Files.exists(f) ? JSON.readValue(f.toFile(), AdaptiveLog.class) : null;
    }

    /** In words, for the first screen: the rounds added, the interval reached and why they stopped. */
    public String describe(String fix) {
        Estimate last = rounds.isEmpty() ? null : Estimate.fromJson(rounds.getLast().ratio());
        String why = switch (stopped) {
            case REACHED -> "its interval within the target" + (last == null ? " with the run's own rounds" : "; " + Verdict.words(last, target));
            case BUDGET -> "the time budget (" + budgetS + " s) spent";
            default -> "the round limit (" + maxRounds + ")";
        };
        String interval = last == null ? "" : String.format(Locale.ROOT, " to %s (±%.1f%%)", last.format(3),
                100 * last.halfWidth());
        return "`" + fix + "`: " + rounds.size() + " headline round(s) added at " + threads + (threads == 1 ? " thread" : " threads")
                + interval + ", target " + Verdict.pct(target) + "; stopped: " + why
                + (stopped.equals(REACHED) || last == null || last.roundsFor(target) < 0 ? ""
                : "; " + Verdict.words(last, target)) + ".";
    }
}
