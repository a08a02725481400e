package lab.jobspec;

/**
 * What the lab does with one of fio 3.33's options ({@link OptionTable}) when a job file sets it.
 */
public enum OptionClass {
    /** Read with fio's meaning by the parser, and run so by the JVM engine and the bridge. */
    IMPLEMENTED("implemented with fio's meaning, by the JVM engine and the bridge"),
    /**
     * Accepted because it does not change what is measured (a description, fio's logs, fio's
     * report): its value is not read, and the job file gets a {@link Notice}.
     */
    NO_EFFECT("accepted, no effect here: nothing measured changes, and spec check says so"),
    /** Refused with a reason: the lab would run the job differently from fio. */
    REFUSED("refused: the lab would not run the job as fio does");

    private final String meaning;

    OptionClass(String meaning) {
        this.meaning = meaning;
    }

    /** One line saying what the class means, for listings such as {@code spec keys}. */
    public String meaning() {
        return meaning;
    }
}
