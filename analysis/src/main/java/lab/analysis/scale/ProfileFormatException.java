package lab.analysis.scale;

import java.nio.file.Path;

/** A profile file the lab refuses: which file, which field, and why. */
public final class ProfileFormatException extends RuntimeException {
    private final Path file;
    private final String field;

    public ProfileFormatException(Path file, String field, String why) {
        super(file + ": " + field + ": " + why);
        this.file = file;
        this.field = field;
    }

    public Path file() {
        return file;
    }

    public String field() {
        return field;
    }
}
