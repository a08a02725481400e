package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import org.junit.jupiter.api.Test;

/** The order of a round's trials: random, balanced, and what a position effect does to the A/A with and without it. */
class TrialsOrderTest {
    private static final List<String> VARIANTS = List.of("atomic", "percpu-ref", "percpu-inflight", "lazy-ticks", "atomic~aa");

    @Test
    void everyVariantTakesEveryPositionOncePerBlockOfRounds() {
        for (long seed : new long[] {1, 42, -7}) {
            for (int block = 0; block < 3; block++) {
                Map<String, Set<Integer>> positions = new HashMap<>();
                for (int r = block * VARIANTS.size() + 1; r <= (block + 1) * VARIANTS.size(); r++) {
                    List<String> o = Trials.order(VARIANTS, r, seed);
                    assertEquals(Set.copyOf(VARIANTS), Set.copyOf(o), "round " + r + " runs every variant once");
                    for (int p = 0; p < o.size(); p++) {
                        assertTrue(positions.computeIfAbsent(o.get(p), x -> new HashSet<>()).add(p),
                                o.get(p) + " twice at position " + p + " in block " + block);
                    }
                }
                positions.values().forEach(s -> assertEquals(VARIANTS.size(), s.size()));
            }
        }
    }

    @Test
    void theOrderIsSeededAndDiffersBetweenSeedsAndBlocks() {
        assertEquals(Trials.order(VARIANTS, 3, 11), Trials.order(VARIANTS, 3, 11));
        List<List<String>> firsts = new ArrayList<>();
        for (long seed = 0; seed < 20; seed++) {
            firsts.add(Trials.order(VARIANTS, 1, seed));
        }
        assertTrue(new HashSet<>(firsts).size() > 10, "20 seeds give mostly different first rounds: " + new HashSet<>(firsts).size());
        assertNotEquals(blockOf(VARIANTS, 0, 5), blockOf(VARIANTS, 1, 5), "the next block draws again");
    }

    private static List<List<String>> blockOf(List<String> v, int block, long seed) {
        List<List<String>> out = new ArrayList<>();
        for (int r = block * v.size() + 1; r <= (block + 1) * v.size(); r++) {
            out.add(Trials.order(v, r, seed));
        }
        return out;
    }

    /**
     * A position effect (each later trial of a round 1.5% slower: heat, a warming parent) with
     * little other noise: in a fixed order the A/A's interval leaves out 1 in most runs; in the
     * balanced random order it holds 1 about as often as a 95% interval should.
     */
    @Test
    void aPositionEffectPassesForAnEffectInAFixedOrderButNotInABalancedOne() {
        List<String> v = List.of("atomic", "percpu-inflight", "atomic~aa");
        SplittableRandom rnd = new SplittableRandom(7);
        int fixedFlagged = 0;
        int balancedFlagged = 0;
        int runs = 300;
        for (int run = 0; run < runs; run++) {
            fixedFlagged += aaExcludesOne(v, 6, rnd, null) ? 1 : 0;
            balancedFlagged += aaExcludesOne(v, 6, rnd, (long) run) ? 1 : 0;
        }
        assertTrue(fixedFlagged > runs * 0.8, "fixed order: the A/A should fail in most runs, failed in " + fixedFlagged);
        assertTrue(balancedFlagged < runs * 0.08, "balanced order: the A/A failed in " + balancedFlagged + " of " + runs);
    }

    /** One simulated run of {@code rounds} rounds; {@code seed} null: the order as listed every round. */
    private static boolean aaExcludesOne(List<String> variants, int rounds, SplittableRandom rnd, Long seed) {
        Map<Integer, Double> base = new HashMap<>();
        Map<Integer, Double> copy = new HashMap<>();
        for (int r = 1; r <= rounds; r++) {
            List<String> order = seed == null ? variants : Trials.order(variants, r, seed);
            for (int p = 0; p < order.size(); p++) {
                double ns = 100 * (1 + 0.015 * p) * Math.exp(0.002 * gauss(rnd));
                if (order.get(p).equals("atomic")) {
                    base.put(r, ns);
                } else if (order.get(p).equals("atomic~aa")) {
                    copy.put(r, ns);
                }
            }
        }
        Estimate aa = Estimator.ratio(base, copy);
        return aa.excludes(1);
    }

    private static double gauss(SplittableRandom rnd) {
        return Math.sqrt(-2 * Math.log(1 - rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
    }
}
