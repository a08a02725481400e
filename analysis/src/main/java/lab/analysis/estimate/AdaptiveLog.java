package lab.analysis.estimate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a fix's adaptive headline rounds did, {@code raw/<fix>/adaptive.json}: Stein's two-stage
 * design ({@link Stein}) on the headline cell's trial (its file prefix) at one thread count. The
 * pilot's rounds ({@code pilot}: the run's own rounds, and rounds added until there were
 * {@link Stein#PILOT}) and their log spread on {@code pilotDf} degrees of freedom; the half-width the
 * design aims at ({@code halfWidth}, {@code ln(1 + M) / 2} for the margin {@code target}); the
 * rounds in all it asked for ({@code planned}); the time budget and round limit that bound it; the
 * headline ratio's and the A/A's estimates after each added round; and why no round more was added
 * ({@link #PLANNED}, {@link #BUDGET}, {@link #LIMIT}). Written by {@code pair}, read by the
 * estimation stage (the pilot rounds decide every interval of the trial's sweep) and the notebook.
 *
 * <p>A log written before 2026-12-07 has no design fields: its rounds were added until the running
 * interval was narrow ({@link #REACHED}, a rule that under-covers); it is read with the first
 * {@code max(3, own rounds)} rounds as the pilot, which that rule always ran, and which give an exact
 * interval for such a rule too ({@link Stein}).
 *
 * @param rounds  one entry per added round (none where the run's own rounds were enough)
 * @param stopped why no round more was added
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AdaptiveLog(String trial, int threads, double target, long budgetS, int maxRounds, List<Integer> pilot,
                          Double pilotSdLog, Integer pilotDf, Double halfWidth, Integer planned, List<Round> rounds, String stopped) {
    public static final String FILE = "adaptive.json";
    /** The design's rounds all ran: the interval's half-width is at most {@code halfWidth}. */
    public static final String PLANNED = "planned";
    /** A log before 2026-12-07: the running interval came within the target (read now with its pilot's spread). */
    public static final String REACHED = "reached";
    public static final String BUDGET = "budget";
    public static final String LIMIT = "limit";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

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

    /** Whether the log says how the design was planned (a log from 2026-12-07 on). */
    public boolean designed() {
        return pilot != null;
    }

    /**
     * The pilot's round numbers among {@code sweepRounds} (the headline trial's sweep): as the log
     * records them; for a log before the design, the first {@code max(3, own rounds)} rounds; empty
     * where no round was added (every round is then a pilot round: nothing to tell apart).
     */
    public SortedSet<Integer> pilotRounds(SortedSet<Integer> sweepRounds) {
        if (pilot != null) {
            return new TreeSet<>(pilot);
        }
        if (rounds == null || rounds.isEmpty()) {
            return new TreeSet<>();
        }
        int own = rounds.getFirst().round() - 1;
        int k = Math.max(Stein.PILOT, own);
        SortedSet<Integer> out = new TreeSet<>();
        for (int r : sweepRounds) {
            if (out.size() < k) {
                out.add(r);
            }
        }
        return out;
    }

    /** In words, for the notebook: the design, the rounds it asked for and ran, why they stopped, and the interval reached. */
    public String describe(String fix) {
        Estimate last = rounds.isEmpty() ? null : Estimate.fromJson(rounds.getLast().ratio());
        int ran = last != null ? last.rounds() : pilot != null ? pilot.size() : 0;
        String at = threads + (threads == 1 ? " thread" : " threads");
        if (!designed()) {
            String why = switch (stopped) {
                case REACHED -> "its running interval within ±" + pct(target) + " (a rule that under-covers; re-read here with the first rounds"
                        + " as Stein's pilot)";
                case BUDGET -> "the time budget (" + budgetS + " s) spent";
                default -> "the round limit (" + maxRounds + ")";
            };
            return "`" + fix + "`: " + rounds.size() + " headline round(s) added at " + at + " before the sequential design, "
                    + (last == null ? ran : last.rounds()) + " in all; stopped: " + why + ".";
        }
        StringBuilder b = new StringBuilder("`").append(fix).append("`: Stein's two-stage design at ").append(at).append(": a pilot of ")
                .append(pilot.size()).append(" rounds");
        if (pilotSdLog != null && pilotDf != null && planned != null) {
            b.append(String.format(Locale.ROOT, " (log spread %.4f, %d df) asked for %d in all for a half-width of ±%.2f%% (margin %s)",
                    pilotSdLog, pilotDf, planned, 100 * Math.expm1(halfWidth), Verdict.pct(target)));
        }
        String why = switch (stopped) {
            case PLANNED -> "all " + ran + " ran";
            case BUDGET -> "the time budget (" + budgetS + " s) ended after " + ran;
            default -> "the round limit (" + maxRounds + ") ended it at " + ran;
        };
        return b.append("; ").append(why).append(last == null ? "" : ": " + last.format(3)).append('.').toString();
    }

    private static String pct(double y) {
        return Verdict.pct(y).substring(1);
    }
}
