package lab.jobspec;

import java.nio.file.Path;
import java.util.List;

/**
 * A parsed job file: its jobs in file order, each with {@code [global]} merged in.
 * fio runs all of them at once (the lab accepts no {@code stonewall}).
 *
 * @param source the file as given to {@link JobFileParser#parse(Path)}
 * @param jobs   at least one job, unmodifiable
 */
public record JobFile(Path source, List<Job> jobs) {
    public JobFile {
        jobs = List.copyOf(jobs);
    }
}
