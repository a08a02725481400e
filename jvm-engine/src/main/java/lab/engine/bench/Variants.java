package lab.engine.bench;

/**
 * The A/A control of a benchmark's variant: the variant's engine id with the suffix
 * {@value #CONTROL_SUFFIX} ({@code atomic~aa}, {@code rwsem~aa}, {@code atomic-refcount~aa}) runs
 * exactly the model of the id without it, as a trial of its own, so that the same run measures its
 * own noise floor: the spread between a variant and its control is what "no difference" looks like.
 *
 * <p>Every benchmark reads its variant {@code @Param} through {@link #id}; the annotations list the
 * engine's ids only ({@code BenchParamsTest} checks), and a pairing asks for a control with
 * {@code -p variant=atomic,atomic~aa} (JMH accepts any string for a String {@code @Param}).
 */
public final class Variants {
    /** What marks a control copy of a variant. */
    public static final String CONTROL_SUFFIX = "~aa";

    private Variants() {
    }

    /** The engine id a variant parameter runs: {@code param} without a {@value #CONTROL_SUFFIX} suffix. */
    public static String id(String param) {
        return isControl(param) ? param.substring(0, param.length() - CONTROL_SUFFIX.length()) : param;
    }

    /** The control copy of the variant {@code id}: {@code id + "~aa"}. */
    public static String control(String id) {
        if (id.isEmpty() || isControl(id)) {
            throw new IllegalArgumentException("not an engine id: '" + id + "'");
        }
        return id + CONTROL_SUFFIX;
    }

    /** Whether {@code param} names a control copy. */
    public static boolean isControl(String param) {
        return param.endsWith(CONTROL_SUFFIX) && param.length() > CONTROL_SUFFIX.length();
    }
}
