package lab.analysis.parse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.analysis.MalformedResultException;

/**
 * What the parsers of perf's fixed-width text reports share: reading the file as lines, a
 * {@code FILE: line N: problem} error, and a cursor that takes a line apart by white space while
 * still able to hand back the rest of the line as written (a caller or a comm may hold spaces).
 */
final class ReportText {
    private ReportText() {}

    static List<String> lines(Path file) throws MalformedResultException {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new MalformedResultException(file, "not readable as UTF-8 text (" + e + ")");
        }
    }

    static MalformedResultException bad(Path file, int lineNo, String problem) {
        return new MalformedResultException(file, "line " + lineNo + ": " + problem);
    }

    /** Whitespace-separated tokens of one line, left to right. */
    static final class Cursor {
        private final String line;
        private int at;

        Cursor(String line) {
            this.line = line;
        }

        /** The next token, or null at the end of the line. */
        String next() {
            while (at < line.length() && Character.isWhitespace(line.charAt(at))) {
                at++;
            }
            if (at == line.length()) {
                return null;
            }
            int start = at;
            while (at < line.length() && !Character.isWhitespace(line.charAt(at))) {
                at++;
            }
            return line.substring(start, at);
        }

        /** Whether {@code text} comes next, after white space; if so, steps past it. */
        boolean take(String text) {
            int from = at;
            while (from < line.length() && Character.isWhitespace(line.charAt(from))) {
                from++;
            }
            if (line.startsWith(text, from)) {
                at = from + text.length();
                return true;
            }
            return false;
        }

        /** The rest of the line without its leading and trailing white space; inner spaces kept. */
        String rest() {
            String r = line.substring(at).strip();
            at = line.length();
            return r;
        }
    }
}
