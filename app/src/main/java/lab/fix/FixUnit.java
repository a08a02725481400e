package lab.fix;

import lab.notebook.Fix;
import lab.notebook.Section;

/**
 * One fix the lab studies, as one unit: its seed facts always, and once the lab models it, how
 * {@code ./lab pair} runs it ({@link Pairing}) and how the notebook renders it ({@link Section}).
 * A modelled fix lives in its own package {@code lab.fix.<id>}, beside its raw-file contract;
 * {@link Fixes#ALL} lists every unit once, and "modelled" means "has a pairing", nothing else.
 */
public interface FixUnit {

    /** The seed's facts and the headline's metric, stated once. */
    Fix fix();

    /** How {@code ./lab pair} runs the fix; null while it is not modelled. */
    default Pairing pairing() {
        return null;
    }

    /** The fix's notebook section; null while it is not modelled. */
    default Section section() {
        return null;
    }

    /**
     * What the fix's "at scale" section needs (its headline's contrast, the seed's scale and the
     * published profile of the seed's machine class, today's variant); null for a fix with no
     * contended line to carry to more threads.
     */
    default lab.analysis.scale.FixScale scale() {
        return null;
    }

    default boolean modelled() {
        return pairing() != null;
    }

    /** A fix the lab knows from its seed only: listed, its figure quoted, never given a number of ours. */
    static FixUnit seedOnly(Fix fix) {
        return () -> fix;
    }
}
