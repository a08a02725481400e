package lab.jobspec;

import java.nio.file.Path;

/**
 * A job file the lab refuses. The message always names file, line and key as
 * {@code FILE:LINE: key 'KEY': what is wrong}; the command line prints it and exits 2
 * before anything is written.
 */
public final class JobSpecException extends Exception {
    private static final long serialVersionUID = 1L;

    private final Path file;
    private final int line;
    private final String key;

    public JobSpecException(Path file, int line, String key, String problem) {
        super(file + ":" + line + ": key '" + (key == null ? "-" : key) + "': " + problem);
        this.file = file;
        this.line = line;
        this.key = key;
    }

    public Path file() { return file; }

    /** 1-based line, or 0 for a whole-file problem (empty, not text, unreadable). */
    public int line() { return line; }

    /** The offending key, or null when the problem is not one key's (e.g. an empty file). */
    public String key() { return key; }
}
