package lab.jobspec;

import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The known key nearest to one that is not known, for "did you mean" in the message: the
 * spellings of {@link OptionTable} and the lab's own keys, by Damerau-Levenshtein distance
 * (optimal string alignment: insert, delete, substitute, swap two neighbours). One is offered only
 * when it is near: at most 2 edits, or a third of the key's length for keys longer than 8. Ties
 * go to the alphabetically first.
 */
final class KeySuggestion {
    private KeySuggestion() {
    }

    /** The nearest known key to {@code key}, if one is near enough to be a misspelling of it. */
    static Optional<String> nearest(String key) {
        int limit = limit(key);
        return known()
                .map(k -> new Candidate(k, distance(key, k)))
                .filter(c -> c.distance() <= limit)
                .min(Comparator.comparingInt(Candidate::distance).thenComparing(Candidate::key))
                .map(Candidate::key);
    }

    private record Candidate(String key, int distance) {
    }

    /** How many edits a misspelling of a key of {@code key}'s length may have. */
    static int limit(String key) {
        return Math.max(2, key.length() / 3);
    }

    private static Stream<String> known() {
        return Stream.concat(OptionTable.all().stream().flatMap(o -> o.spellings().stream()), Keys.labKeys().stream());
    }

    /** Edits (insert, delete, substitute, swap of neighbours) turning {@code a} into {@code b}. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }
}
