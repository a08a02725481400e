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

    /** The floor after the last round; null without one. */
    Double floor() {
        return rounds.isEmpty() ? null : rounds.getLast().floor();
    }

    /** Mean seconds per round. */
    double secondsPerRound() {
        return rounds.stream().mapToDouble(Round::seconds).average().orElse(Double.NaN);
    }

    /**
     * Rounds the floor would need to reach {@code target}, if it shrinks as 1/sqrt(rounds) (more
     * rounds of independent trials; a systematic A/A offset would not shrink, which the floor
     * after each round shows): rounds x (floor / target)^2, rounded up.
     */
    long roundsFor(double target) {
        Double f = floor();
        return f == null ? -1 : (long) Math.ceil(rounds.size() * Math.pow(f / target, 2));
    }

    /** The sweep in words: rounds, floor per round, why it stopped and, if short of the target, what reaching it would take. */
    String describe() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "The seed sweep ran %d round(s) of %d fork(s) per trial, "
                + "%.0f s each; the A/A floor at %d threads after each round, as the run computed it then: ", rounds.size(), forks, secondsPerRound(), threads));
        b.append(String.join(", ", rounds.stream().map(r -> r.floor() == null ? "n/a"
                : String.format(Locale.ROOT, "±%.1f%%", 100 * r.floor())).toList()));
        b.append(String.format(Locale.ROOT, ". It sought a floor below the seed's effect (±%.1f%%) and stopped at the %s",
                100 * target, stopped.equals(REACHED) ? "target: " + REACHED : stopped + " (" + maxRounds + ")"));
        Double f = floor();
        if (f != null && f > target) {
            long need = roundsFor(target);
            b.append(String.format(Locale.ROOT, "; a floor of ±%.1f%% would take about %d rounds (%.0f min more at this pace), if"
                    + " the floor shrinks as one over the square root of the rounds", 100 * target, need,
                    (need - rounds.size()) * secondsPerRound() / 60));
        }
        return b.append(".").toString();
    }
}
