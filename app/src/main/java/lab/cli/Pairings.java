package lab.cli;

import java.util.List;
import lab.notebook.Fix;
import lab.notebook.Fixes;

/** The pairings that exist, by fix id; a fix without one is "not yet modelled". */
final class Pairings {
    private Pairings() {}

    static Pairing of(String fix) {
        return switch (fix) {
            case "primitives" -> new PrimitivesPairing();
            case "zram-init-lock" -> new ZramInitLockPairing();
            case "part-acct" -> new PartAcctPairing();
            default -> null;
        };
    }

    /** Every modelled fix's pairing, in the table's order. */
    static List<Pairing> all() {
        return Fixes.ALL.stream().filter(Fix::modelled).map(f -> of(f.id())).filter(p -> p != null).toList();
    }

    /** Null when the sweep is usable, else what is wrong with it. */
    static String checkSweep(List<Integer> threads, int rounds) {
        if (rounds < 1 || threads.isEmpty() || threads.stream().anyMatch(n -> n < 1 || n > 64)) {
            return "--rounds must be >= 1 and --threads values in 1..64";
        }
        if (!threads.contains(1)) {
            return "--threads must include 1: scaling is measured against one thread";
        }
        return null;
    }
}
