package lab.jobspec;

/**
 * One {@code key=value} line of a job file, kept with its line so that a value found wrong
 * only when the job is assembled is still reported where it was written.
 *
 * @param key   the key as written ({@code rwmixwrite}, {@code blocksize}), for messages
 * @param value the value with blanks and trailing comment removed; {@code "1"} for a bare flag
 * @param line  1-based line in the job file
 */
record Setting(String key, String value, int line) {
}
