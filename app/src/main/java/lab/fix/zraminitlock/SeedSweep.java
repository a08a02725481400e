package lab.fix.zraminitlock;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * How the seed sweep ({@code zram-seed-rR-tT.json}) went, as the pairing logged it
 * ({@code raw/zram-init-lock/seed-sweep.json}): the seed's effect is 1-2%, near this machine's
 * noise, so a full run adds rounds until the A/A floor at the headline's thread count is below
 * the seed's effect, or stops at a limit; the notebook states the floor reached and what going
 * lower would take.
 *
 * @param target   the floor sought: the seed's effect, |ratio - 1|
 * @param threads  the thread count the floor is taken at (the headline's)
 * @param forks    JMH forks per trial
 * @param maxRounds the limit
 * @param rounds   the floor after each round, and the seconds each round took
 * @param stopped  why it stopped: {@link #REACHED} or {@link #LIMIT}
 */
record SeedSweep(double target, int threads, int forks, int maxRounds, List<Round> rounds, String stopped) {
    static final String REACHED = "floor below the seed's effect";
    static final String LIMIT = "round limit";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** One round: its number, the floor over rounds 1..round (a fraction; null without the control), its seconds. */
    record Round(int round, Double floor, double seconds) {}

    void write(Path fixRaw) throws IOException {
        JSON.writeValue(fixRaw.resolve(ZramInitLockRaw.SEED_SWEEP).toFile(), this);
    }

    static SeedSweep read(Path fixRaw) throws IOException {
        Path f = fixRaw.resolve(ZramInitLockRaw.SEED_SWEEP);
        return Files.exists(f) ? JSON.readValue(f.toFile(), SeedSweep.class) : null;
    }

    /** Mean seconds per round. */
    double secondsPerRound() {
        return rounds.stream().mapToDouble(Round::seconds).average().orElse(Double.NaN);
    }

    /**
     * The sweep in words: rounds, floor per round, and why it stopped. No count of rounds that would
     * reach the target is given: this sweep's floors came from intervals on a few rounds each, and
     * a count extrapolated as one over the square root of the rounds takes their spread as known;
     * the lab's design since 2026-12-07 ({@code lab.fix.Adaptive}, Stein's) says such counts from
     * a pilot's spread on its degrees of freedom.
     */
    String describe() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "The seed sweep ran %d round(s) of %d fork(s) per trial, "
                + "%.0f s each; the A/A floor at %d threads after each round, as the run computed it then: ", rounds.size(), forks, secondsPerRound(), threads));
        b.append(String.join(", ", rounds.stream().map(r -> r.floor() == null ? "n/a"
                : String.format(Locale.ROOT, "±%.1f%%", 100 * r.floor())).toList()));
        b.append(String.format(Locale.ROOT, ". It sought a floor below the seed's effect (±%.1f%%) and stopped at the %s",
                100 * target, stopped.equals(REACHED) ? "target: " + REACHED : stopped + " (" + maxRounds + ")"));
        b.append(stopped.equals(REACHED) ? ": a rule that stops on what it sees, which the lab no longer uses (it makes intervals too"
                + " narrow; the headline rounds are now Stein's two-stage design)" : "");
        return b.append(".").toString();
    }
}
