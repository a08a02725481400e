package lab.fix;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The steps of a {@code pair} run: a progress line on the terminal when each starts, and one
 * line of {@code raw/steps.tsv} when each ends ({@code fix<TAB>step<TAB>status<TAB>detail};
 * status is {@code ran}, {@code skipped} or {@code failed}), which the notebook prints as
 * "What ran". A failed or skipped step never loses the others' results.
 */
public final class Steps {
    private final Path tsv;
    private final PrintStream progress;
    private final long t0 = System.nanoTime();
    private int n;

    public Steps(Path rawDir, PrintStream progress) {
        this.tsv = rawDir.resolve("steps.tsv");
        this.progress = progress;
    }

    /** Announces a step: "lab: [3 | 41 s] primitives: kernel: zram-floor". */
    public void begin(String fix, String step, String what) {
        n++;
        progress.printf("lab: [step %d | %d s] %s: %s: %s%n", n, elapsedS(), fix, step, what);
    }

    public void end(String fix, String step, String status, String detail) throws IOException {
        String line = fix + "\t" + step + "\t" + status + "\t" + detail.replace('\t', ' ').replace('\n', ' ') + "\n";
        Files.writeString(tsv, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (!status.equals("ran")) {
            progress.printf("lab: %s: %s %s: %s%n", fix, step, status, detail);
        }
    }

    public long elapsedS() {
        return (System.nanoTime() - t0) / 1_000_000_000L;
    }
}
