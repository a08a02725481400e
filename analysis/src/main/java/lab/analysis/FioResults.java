package lab.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import lab.jobspec.report.FioReport;

/** Reads a fio-style JSON file (fio itself, the engine or the bridge), refusing a foreign one. */
public final class FioResults {
    private FioResults() {}

    /** The report in {@code f}, which must hold at least one job. */
    public static FioReport read(Path f) throws MalformedResultException {
        FioReport r;
        try (InputStream in = Files.newInputStream(f)) {
            r = FioReport.readJson(in);
        } catch (IOException e) {
            throw new MalformedResultException(f, "not fio-style JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        if (r == null || r.jobs() == null || r.jobs().isEmpty()) {
            throw new MalformedResultException(f, "no jobs[] in fio-style JSON");
        }
        return r;
    }
}
