package lab.jobspec;

import java.nio.file.Path;
import java.util.List;

/**
 * A parsed job file: its jobs in file order, each with {@code [global]} merged in, and a notice for
 * each line the lab accepted without acting on it. fio runs all the jobs at once (the lab accepts
 * no {@code stonewall}).
 *
 * @param source  the file as given to {@link JobFileParser#parse(Path)}
 * @param jobs    at least one job, unmodifiable
 * @param notices the settings of fio options with no effect here, in file order, unmodifiable
 */
public record JobFile(Path source, List<Job> jobs, List<Notice> notices) {
    public JobFile {
        jobs = List.copyOf(jobs);
        notices = List.copyOf(notices);
    }

    /** A job file without notices. */
    public JobFile(Path source, List<Job> jobs) {
        this(source, jobs, List.of());
    }
}
