package lab.jobspec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code verify_pattern}'s bytes, read as fio 3.33's {@code parse_and_fill_pattern()} reads them:
 * a sequence of
 * <ul>
 * <li>hex numbers {@code 0x...} of any length, bytes in the order written ({@code 0xdeadbeef} is
 *     de ad be ef; an odd digit count makes the first byte one digit: {@code 0xabc} is 0a bc;
 *     {@code 0xff0x14} is two numbers);</li>
 * <li>decimal numbers in [-2^31, 2^31-1], least significant byte first, as few bytes as hold the
 *     value ({@code 0} is one zero byte, {@code -12} is f4 ff ff ff);</li>
 * <li>strings in double quotes, their UTF-8 bytes.</li>
 * </ul>
 * fio's {@code %o} (the block's offset) and {@code 'file'} are refused here. At most
 * {@value #MAX_BYTES} bytes (fio's {@code MAX_PATTERN_SIZE}). The pattern repeats over the block
 * from its first byte. Note that the job-file parser ends a value at {@code ;} or {@code #}, as fio.
 */
public final class VerifyPattern {
    /** fio's {@code MAX_PATTERN_SIZE}. */
    public static final int MAX_BYTES = 512;

    private VerifyPattern() {
    }

    /** The pattern's bytes; {@link IllegalArgumentException} says what is wrong. */
    public static byte[] parse(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '"') {
                int end = text.indexOf('"', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("'" + text + "': string without its closing '\"'");
                }
                out.writeBytes(text.substring(i + 1, end).getBytes(StandardCharsets.UTF_8));
                i = end + 1;
            } else if (c == '%' || c == '\'') {
                throw new IllegalArgumentException("'" + text + "': " + (c == '%' ? "formats such as %o (the block's offset)"
                        : "a pattern read from a file ('name')") + " are not supported by the lab; use hex, decimal"
                        + " or \"string\" parts");
            } else if (text.startsWith("0x", i) || text.startsWith("0X", i)) {
                i = hex(text, i + 2, out);
            } else {
                i = decimal(text, i, out);
            }
        }
        if (out.size() == 0) {
            throw new IllegalArgumentException("'" + text + "': an empty pattern");
        }
        if (out.size() > MAX_BYTES) {
            throw new IllegalArgumentException("'" + text + "': " + out.size() + " bytes, more than fio's "
                    + MAX_BYTES);
        }
        return out.toByteArray();
    }

    private static int hex(String text, int from, ByteArrayOutputStream out) {
        int end = from;
        while (end < text.length() && Character.digit(text.charAt(end), 16) >= 0) {
            end++;
        }
        // fio looks back: in 0xff0x14 the run "ff0" ends where the next 0x begins
        if (end < text.length() && end > from && text.charAt(end - 1) == '0'
                && (text.charAt(end) == 'x' || text.charAt(end) == 'X')) {
            end--;
        }
        if (end == from) {
            throw new IllegalArgumentException("'" + text + "': 0x without hex digits");
        }
        String digits = text.substring(from, end);
        if (digits.length() % 2 == 1) {
            digits = "0" + digits;
        }
        for (int k = 0; k < digits.length(); k += 2) {
            out.write(Integer.parseInt(digits.substring(k, k + 2), 16));
        }
        return end;
    }

    private static int decimal(String text, int from, ByteArrayOutputStream out) {
        int end = from;
        if (end < text.length() && (text.charAt(end) == '-' || text.charAt(end) == '+')) {
            end++;
        }
        int digits = end;
        while (end < text.length() && Character.isDigit(text.charAt(end))
                && !(text.startsWith("0x", end) || text.startsWith("0X", end))) {
            end++;
        }
        if (end == digits) {
            throw new IllegalArgumentException("'" + text + "': '" + text.substring(from)
                    + "' is not a number (0x-hex or decimal) or a \"string\"");
        }
        long v;
        try {
            v = Long.parseLong(text.substring(from, end));
        } catch (NumberFormatException e) {
            v = Long.MAX_VALUE;
        }
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("'" + text + "': decimal " + text.substring(from, end)
                    + " is outside [-2147483648, 2147483647]; write larger values in hex");
        }
        int u = (int) v;
        if (u == 0) {
            out.write(0);
        }
        for (; u != 0; u >>>= 8) {
            out.write(u & 0xff);
        }
        return end;
    }
}
