package lab.analysis.parse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Pattern;
import lab.analysis.MalformedResultException;

/**
 * Reads a sysfs file that holds one line of whitespace-separated unsigned decimal counters,
 * as {@code /sys/block/<dev>/stat} and zram's {@code mm_stat} do. Shared by {@link DiskStat}
 * and {@link ZramMmStat}; each names its own fields and allowed field counts.
 */
final class SysfsCounters {
    private static final Pattern UNSIGNED = Pattern.compile("\\d+");

    private SysfsCounters() {}

    /**
     * The counters of {@code file}, in order.
     *
     * @param names the name of each possible field, used in error messages
     * @param allowedCounts how many fields a well-formed file may hold
     * @param reference the document that defines the format, quoted in error messages
     * @throws MalformedResultException for an unreadable, empty, multi-line or foreign file, a
     *         field count not in {@code allowedCounts}, or a field that is not an unsigned integer
     */
    static long[] read(Path file, String[] names, Set<Integer> allowedCounts, String reference)
            throws MalformedResultException {
        String text = content(file).strip();
        if (text.isEmpty()) {
            throw new MalformedResultException(file, "is empty");
        }
        if (text.contains("\n")) {
            throw new MalformedResultException(file, "holds more than one line; expected a single line of counters");
        }
        String[] fields = text.split("\\s+");
        if (!allowedCounts.contains(fields.length)) {
            throw new MalformedResultException(file, "has " + fields.length + " fields; expected "
                    + allowedCounts.stream().sorted().map(String::valueOf).toList() + " (" + reference + ")");
        }
        long[] values = new long[fields.length];
        for (int i = 0; i < fields.length; i++) {
            values[i] = unsigned(file, i, names[i], fields[i]);
        }
        return values;
    }

    private static String content(Path file) throws MalformedResultException {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new MalformedResultException(file, "not readable (" + e + ")");
        }
    }

    private static long unsigned(Path file, int index, String name, String text) throws MalformedResultException {
        if (UNSIGNED.matcher(text).matches()) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException tooBig) {
                // falls through to the error below
            }
        }
        throw new MalformedResultException(file, "field " + (index + 1) + " (" + name + ") '" + text
                + "' is not an unsigned integer below 2^63");
    }
}
