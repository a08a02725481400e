package lab.analysis;

import java.nio.file.Path;

/** A raw result file that cannot be used: the message names the file and what was wrong. */
public final class MalformedResultException extends Exception {
    private static final long serialVersionUID = 1L;

    private final Path file;
    private final String problem;

    public MalformedResultException(Path file, String problem) {
        super(file + ": " + problem);
        this.file = file;
        this.problem = problem;
    }

    public Path file() { return file; }

    /** What was wrong, without the file name. */
    public String problem() { return problem; }
}
