package lab.jobspec;

import java.nio.file.Path;
import java.util.List;

/**
 * A job file the lab refuses. The message always names file, line and key as
 * {@code FILE:LINE: key 'KEY': what is wrong}; the command line prints it and exits 2
 * before anything is written. Where the file has more than one refusal (the parser goes on past a
 * refused key or job: {@link JobFileParser}), this is the first, {@link #refusals()} has every one
 * in file order, and the message says how many more there are.
 */
public final class JobSpecException extends Exception {
    private static final long serialVersionUID = 1L;

    private final Path file;
    private final int line;
    private final String key;
    /** Every refusal of the file, this one first; null for this one alone. */
    private final List<JobSpecException> all;

    public JobSpecException(Path file, int line, String key, String problem) {
        super(file + ":" + line + ": key '" + (key == null ? "-" : key) + "': " + problem);
        this.file = file;
        this.line = line;
        this.key = key;
        this.all = null;
    }

    private JobSpecException(List<JobSpecException> all) {
        super(all.get(0).getMessage() + " (and " + (all.size() - 1) + " more refusal(s) in the file: `lab spec check`"
                + " lists every one)");
        JobSpecException first = all.get(0);
        this.file = first.file;
        this.line = first.line;
        this.key = first.key;
        this.all = List.copyOf(all);
    }

    /** The refusals of one file, in file order, as one exception: the first itself where it is alone. */
    static JobSpecException of(List<JobSpecException> refusals) {
        return refusals.size() == 1 ? refusals.get(0) : new JobSpecException(refusals);
    }

    /** Every refusal of the file, in file order, this one first. */
    public List<JobSpecException> refusals() {
        return all == null ? List.of(this) : all;
    }

    /** This refusal's own line, {@code FILE:LINE: key 'KEY': problem}, without the count of the others. */
    public String own() {
        return all == null ? getMessage() : all.get(0).getMessage();
    }

    public Path file() { return file; }

    /** 1-based line, or 0 for a whole-file problem (empty, not text, unreadable). */
    public int line() { return line; }

    /** The offending key, or null when the problem is not one key's (e.g. an empty file). */
    public String key() { return key; }
}
