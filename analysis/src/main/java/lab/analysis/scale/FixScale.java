package lab.analysis.scale;

import java.util.Map;

/**
 * What a fix's "at scale" section needs of the fix, stated once in the fix's own unit: the
 * headline's contrast (throughput of {@code after} over {@code before}, at the count run's
 * {@code point}), the seed's figure and scale, the published profile of the seed's machine class
 * (or why there is none), and the variant that is today's kernel as the model has it.
 *
 * @param fixId        the fix
 * @param before       the variant before the fix (the headline's base)
 * @param after        the variant after it (the headline's candidate)
 * @param label        the contrast in words, as the fix's headline names it
 * @param point        the count run's point the contrast is read at ({@code counts.json}'s params)
 * @param hz           ticks per second for per-tick work (0: the model has no clock)
 * @param seed         the seed's figure as the same ratio
 * @param seedThreads  the threads the seed ran (null: the seed does not say)
 * @param seedScale    the seed's scale in words, from the seed
 * @param seedProfile  the published profile of the seed's machine class (a file name under the
 *                     lab's published profiles), or null
 * @param seedClass    why that class (what the seed states that points to it), or why none
 * @param classThreads where the seed states no thread count, the count the row predicts at and why
 *                     (the class's cores), else null
 * @param today        the variant that is today's kernel (every fix applied), for what is left
 */
public record FixScale(String fixId, String before, String after, String label, Map<String, String> point, int hz, double seed,
                       Integer seedThreads, String seedScale, String seedProfile, String seedClass, String classThreads, String today) {}
