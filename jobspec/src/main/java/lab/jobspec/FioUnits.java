package lab.jobspec;

import java.util.Locale;

/**
 * fio 3.33's number syntax for sizes and times, as parse.c reads them with the default
 * {@code kb_base=1024}. Package-private: only {@link JobFileParser} parses values.
 *
 * <p>Sizes: decimal digits then an optional case-insensitive suffix, or {@code 0x} hex digits
 * alone.
 * {@code k/kb}, {@code m/mb}, {@code g/gb}, {@code t/tb}, {@code p/pb} are powers of 1024;
 * {@code kib}, {@code mib}, {@code gib}, {@code tib}, {@code pib} are powers of <em>1000</em>.
 * That inversion is fio's "compatibility mode" for {@code kb_base=1024} (parse.c,
 * {@code __get_mult_bytes}: "If kb_base is 1024, use opposite units"), so {@code bs=4KiB} is
 * 4000 bytes in fio and here. fio's {@code %} sizes (a fraction of the file) are refused.
 * fio reads a hex number with {@code strtoll(.., 16)} but looks for the unit from the first
 * non-decimal character, which is the {@code x}: so it ignores any unit after hex digits
 * ({@code 0x1000k} is 4096 bytes in fio 3.33, parse.c {@code get_mult_bytes}). The lab refuses a
 * unit after hex digits rather than pick either reading.
 *
 * <p>Times: an optional suffix {@code us/usec}, {@code ms/msec}, {@code s}, {@code m}, {@code h},
 * {@code d}; no suffix means seconds for {@code runtime} and {@code ramp_time}. Suffixes fio
 * does not know ({@code sec}, {@code min}, {@code hr}) are refused rather than read as
 * microseconds, which is what fio silently does with them. For the same reason fio reads every
 * hex time as microseconds ({@code runtime=0x10} is 16 us, not 16 s: {@code get_mult_time} sees
 * the {@code x} as an unknown unit), so hex times are refused too.
 *
 * <p>Where fio ignores trailing garbage ({@code bs=4q} is 4 bytes, {@code numjobs=1e9} is 1 job),
 * the lab refuses it. Errors are {@link IllegalArgumentException}s whose message is the
 * problem; the parser adds file, line and key.
 */
final class FioUnits {
    private static final long NS_PER_US = 1_000L;

    private FioUnits() {
    }

    /** Bytes for a size such as {@code 4k}, {@code 1g}, {@code 0x1000}. */
    static long size(String text) {
        int end = digitsEnd(text);
        long value = number(text, end);
        if (hex(text) && end != text.length()) {
            throw new IllegalArgumentException("fio ignores a unit after hex digits and reads '" + text + "' as "
                    + value + " bytes; write " + text.substring(0, end) + " for that, or a decimal number with"
                    + " its unit");
        }
        String suffix = text.substring(end).toLowerCase(Locale.ROOT);
        return times(value, sizeMultiplier(suffix), text);
    }

    /** Nanoseconds for a time such as {@code 10}, {@code 500ms}, {@code 2m}; bare numbers are seconds. */
    static long timeNs(String text) {
        if (hex(text)) {
            throw new IllegalArgumentException("fio reads a hex time as microseconds whatever its unit ('"
                    + text + "'); write the time in decimal");
        }
        int end = digitsEnd(text);
        long value = number(text, end);
        String suffix = text.substring(end).toLowerCase(Locale.ROOT);
        return times(value, timeMultiplierNs(suffix), text);
    }

    /**
     * Nanoseconds for a time whose bare numbers are {@code bareNs} each: microseconds for
     * {@code thinktime} and its kin ({@code 1_000}), as fio's {@code is_time} options without
     * {@code is_seconds}; otherwise as {@link #timeNs(String)}.
     */
    static long timeNs(String text, long bareNs) {
        int end = hex(text) ? text.length() : digitsEnd(text);
        if (!hex(text) && end == text.length()) {
            return times(number(text, end), bareNs, text);
        }
        return timeNs(text);
    }

    /** A plain decimal (or {@code 0x} hex) count without suffix, as the lab reads counts and percentages. */
    static long count(String text) {
        int end = digitsEnd(text);
        if (end != text.length()) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number");
        }
        return number(text, end);
    }

    /** An unsigned 64-bit value (for {@code randseed}), decimal or {@code 0x} hex. */
    static long unsigned64(String text) {
        int end = digitsEnd(text);
        if (end != text.length() || end == 0) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number");
        }
        try {
            return hex(text) ? Long.parseUnsignedLong(text.substring(2), 16) : Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' does not fit in 64 bits");
        }
    }

    private static boolean hex(String text) {
        return text.length() > 2 && text.charAt(0) == '0' && (text.charAt(1) == 'x' || text.charAt(1) == 'X');
    }

    private static int digitsEnd(String text) {
        boolean hex = hex(text);
        int i = hex ? 2 : 0;
        while (i < text.length() && (hex ? Character.digit(text.charAt(i), 16) >= 0 : isDecimal(text.charAt(i)))) {
            i++;
        }
        return i;
    }

    private static boolean isDecimal(char c) {
        return c >= '0' && c <= '9';
    }

    private static long number(String text, int end) {
        int start = hex(text) ? 2 : 0;
        if (end == start) {
            throw new IllegalArgumentException(text.startsWith("-")
                    ? "'" + text + "' must not be negative"
                    : "'" + text + "' is not a number");
        }
        try {
            return Long.parseLong(text.substring(start, end), start == 2 ? 16 : 10);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
    }

    private static long times(long value, long multiplier, String text) {
        try {
            return Math.multiplyExact(value, multiplier);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
    }

    private static long sizeMultiplier(String suffix) {
        return switch (suffix) {
            case "" -> 1L;
            case "k", "kb" -> 1L << 10;
            case "m", "mb" -> 1L << 20;
            case "g", "gb" -> 1L << 30;
            case "t", "tb" -> 1L << 40;
            case "p", "pb" -> 1L << 50;
            case "kib" -> 1_000L;
            case "mib" -> 1_000_000L;
            case "gib" -> 1_000_000_000L;
            case "tib" -> 1_000_000_000_000L;
            case "pib" -> 1_000_000_000_000_000L;
            case "%" -> throw new IllegalArgumentException("percentage sizes are not supported; give bytes");
            default -> throw new IllegalArgumentException("unknown size suffix '" + suffix + "'" + fiosReading(suffix));
        };
    }

    /**
     * How fio would read an unknown suffix: by its first letter, ignoring the rest
     * ({@code __get_mult_bytes} compares only that prefix), so {@code 64mi} is 64 MiB there.
     */
    private static String fiosReading(String suffix) {
        String unit = suffix.substring(0, 1);
        return "kmgtp".contains(unit)
                ? " (fio reads it as '" + unit + "', ignoring the rest; write '" + unit + "' if that is meant)"
                : "";
    }

    private static long timeMultiplierNs(String suffix) {
        return switch (suffix) {
            case "us", "usec" -> NS_PER_US;
            case "ms", "msec" -> 1_000 * NS_PER_US;
            case "", "s" -> 1_000_000 * NS_PER_US;
            case "m" -> 60L * 1_000_000 * NS_PER_US;
            case "h" -> 3_600L * 1_000_000 * NS_PER_US;
            case "d" -> 86_400L * 1_000_000 * NS_PER_US;
            default -> throw new IllegalArgumentException(
                    "unknown time suffix '" + suffix + "' (fio knows us, usec, ms, msec, s, m, h, d)");
        };
    }
}
