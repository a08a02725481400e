package lab.fix;

import java.util.List;

/**
 * The order in which a pairing's rounds visit the thread counts: round 1 ascending (1, 2, .. N),
 * round 2 descending (N, .., 1), and so on alternating, so that drift over a run (heat, clock
 * frequency, the JIT's state in the parent) falls on every thread count alike.
 */
public final class Rounds {
    private Rounds() {}

    /** What one round does at one thread count. */
    public interface Body<E extends Exception> {
        void run(int round, int threads) throws E;
    }

    /**
     * Calls {@code body} for rounds 1..{@code rounds}, each over {@code threads} in that round's
     * order; after each call but the last, one line on {@code progress}: how many of the sweep's
     * calls are done and, from their time, about how long the rest will take.
     */
    public static <E extends Exception> void interleave(List<Integer> threads, int rounds, java.io.PrintStream progress, String what,
                                                        Body<E> body) throws E {
        int total = rounds * threads.size();
        int done = 0;
        long t0 = System.nanoTime();
        for (int r = 1; r <= rounds; r++) {
            for (int t : ordered(threads, r)) {
                body.run(r, t);
                done++;
                if (done < total) {
                    progress.printf("lab:   %s: %d of %d done, %s%n", what, done, total, Progress.eta(System.nanoTime() - t0, done, total));
                }
            }
        }
    }

    /** {@code items} in round {@code round}'s order: as given in odd rounds, reversed in even ones. */
    public static <T> List<T> ordered(List<T> items, int round) {
        return round % 2 == 0 ? items.reversed() : items;
    }

    /** The most threads of a sweep: where a headline is measured. */
    public static int most(List<Integer> threads) {
        return threads.stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    /** The default sweep: 1..cores. */
    public static List<Integer> defaultThreads() {
        int n = Runtime.getRuntime().availableProcessors();
        List<Integer> t = new java.util.ArrayList<>();
        for (int i = 1; i <= n; i++) {
            t.add(i);
        }
        return t;
    }
}
