package lab.analysis.parse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tab-separated file with a header line, as kernel-scripts write their tables: each row's
 * cells by column name. Columns the reader does not ask for are kept and never required, so a
 * script may add some; blank lines are skipped. Anything else that does not fit is a
 * {@link Malformed} naming {@code FILE:LINE}.
 */
public final class Tsv {
    private Tsv() {}

    /** A line of a table that cannot be used: {@code FILE:LINE: problem}. */
    public static final class Malformed extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final transient Path file;
        private final int line;
        private final String problem;

        public Malformed(Path file, int line, String problem) {
            super(file + ":" + line + ": " + problem);
            this.file = file;
            this.line = line;
            this.problem = problem;
        }

        public Path file() { return file; }

        public int line() { return line; }

        /** What was wrong, without the file name. */
        public String problem() { return problem; }
    }

    /** One data line: its cells by column name, and where it came from for error messages. */
    public record Row(Path file, int line, Map<String, String> cells) {
        public String text(String column) {
            return cells.get(column);
        }

        public int integer(String column) {
            try {
                return Integer.parseInt(cells.get(column));
            } catch (NumberFormatException e) {
                throw bad(column, "not an integer");
            }
        }

        public long count(String column) {
            try {
                long v = Long.parseLong(cells.get(column));
                if (v < 0) {
                    throw bad(column, "negative");
                }
                return v;
            } catch (NumberFormatException e) {
                throw bad(column, "not an integer");
            }
        }

        public double number(String column) {
            try {
                double v = Double.parseDouble(cells.get(column));
                if (Double.isNaN(v) || Double.isInfinite(v)) {
                    throw bad(column, "not a finite number");
                }
                return v;
            } catch (NumberFormatException e) {
                throw bad(column, "not a number");
            }
        }

        /** A problem with this line, as {@code FILE:LINE: column 'C' is 'V': problem}. */
        public Malformed bad(String column, String problem) {
            return new Malformed(file, line, "column '" + column + "' is '" + cells.get(column) + "': " + problem);
        }

        public Malformed bad(String problem) {
            return new Malformed(file, line, problem);
        }
    }

    /** The rows of {@code file}, whose header must name every column of {@code required}. */
    public static List<Row> read(Path file, List<String> required) throws IOException {
        List<String> lines = Files.readAllLines(file);
        int first = 0;
        while (first < lines.size() && lines.get(first).isBlank()) {
            first++;
        }
        if (first == lines.size()) {
            throw new Malformed(file, 1, "empty: no header line");
        }
        String[] header = lines.get(first).split("\t", -1);
        List<String> names = List.of(header);
        for (String c : required) {
            if (!names.contains(c)) {
                throw new Malformed(file, first + 1, "the header has no column '" + c + "' (expected " + String.join(" ", required) + ")");
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int i = first + 1; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isBlank()) {
                continue;
            }
            String[] cells = l.split("\t", -1);
            if (cells.length != header.length) {
                throw new Malformed(file, i + 1, cells.length + " fields, the header has " + header.length);
            }
            Map<String, String> m = new LinkedHashMap<>();
            for (int c = 0; c < header.length; c++) {
                m.put(header[c], cells[c].strip());
            }
            rows.add(new Row(file, i + 1, m));
        }
        return rows;
    }
}
