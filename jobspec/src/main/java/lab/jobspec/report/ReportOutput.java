package lab.jobspec.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Where a run's report goes: standard output, or a file written whole or not at all. The one way
 * the engine's and the bridge's command lines hand out their JSON.
 */
public final class ReportOutput {
    private ReportOutput() {
    }

    /**
     * Writes {@code report} to {@code out} when {@code output} is null, else atomically to
     * {@code output}, saying so on {@code notes} ({@code lab: wrote FILE}).
     */
    public static void emit(FioReport report, Path output, PrintStream out, PrintStream notes) throws IOException {
        if (output == null) {
            report.writeJson(out);
            out.flush();
        } else {
            writeAtomically(report, output);
            notes.println("lab: wrote " + output);
        }
    }

    /** Writes beside {@code target} and renames, so a reader never sees half a file. */
    public static void writeAtomically(FioReport report, Path target) throws IOException {
        Path abs = target.toAbsolutePath();
        Files.createDirectories(abs.getParent());
        Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName(), ".partial");
        try {
            try (OutputStream o = Files.newOutputStream(tmp)) {
                report.writeJson(o);
            }
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
