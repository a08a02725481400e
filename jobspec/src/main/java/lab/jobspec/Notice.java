package lab.jobspec;

import java.nio.file.Path;

/**
 * A job-file line the lab accepted without acting on it: an option of fio's that does not change
 * what is measured ({@link OptionClass#NO_EFFECT}), such as {@code description} or
 * {@code write_lat_log}. {@code spec check} prints each before the jobs.
 *
 * @param file   the job file
 * @param line   1-based line of the setting
 * @param key    the key as written
 * @param reason why it changes nothing here, from {@link OptionTable}
 */
public record Notice(Path file, int line, String key, String reason) {
    /** {@code FILE:LINE: key 'KEY': accepted, no effect here (REASON)}, in the shape of a {@link JobSpecException}'s message. */
    public String message() {
        return file + ":" + line + ": key '" + key + "': accepted, no effect here (" + reason + ")";
    }
}
