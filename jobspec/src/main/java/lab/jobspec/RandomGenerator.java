package lab.jobspec;

/**
 * fio's {@code random_generator}: which generator picks random offsets. The lab has generators of
 * its own ({@link SplitMix} and a keyed bijection, see {@link IoSequence}), so the choice changes
 * how the lab picks blocks, never how many I/Os a pass has or which range they fall in; the exact
 * order always differs from fio's.
 *
 * <ul>
 * <li>{@link #TAUSWORTHE} (fio's default) and {@link #TAUSWORTHE64}: uniform draws, with fio's
 *     random map unless {@code norandommap}. The lab draws from one 64-bit stream for both: fio's
 *     two differ only in period, which no lab run can exhaust.</li>
 * <li>{@link #LFSR}: every block exactly once per pass with no map, as fio's LFSR does; the lab
 *     walks its keyed bijection, which has the same guarantee. As in fio, with several block sizes
 *     I/Os may overlap (no map truncates them).</li>
 * </ul>
 */
public enum RandomGenerator {
    TAUSWORTHE,
    LFSR,
    TAUSWORTHE64
}
