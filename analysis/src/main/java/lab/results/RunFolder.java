package lab.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One run's folder under {@code results/}: {@code manifest.json}, {@code raw/}, {@code NOTEBOOK.md}.
 *
 * <p>Nothing is lost and nothing is half-written: a run builds its folder as
 * {@code results/.RUN-ID.partial} and {@link #commit()} renames it into place only when every
 * step succeeded. A failed run deletes its partial folder ({@link #abandon()}), so a result folder
 * that exists is always complete. An existing folder of the same id is never overwritten. A
 * run the JVM leaves unfinished (Ctrl-C, SIGTERM) keeps its partial folder, with an
 * {@code INTERRUPTED} note written on the way out ({@link #markUnfinished()}).
 */
public final class RunFolder {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path finalDir;
    private final Path work;
    private final Thread onExit;

    private RunFolder(Path finalDir, Path work) {
        this.finalDir = finalDir;
        this.work = work;
        this.onExit = new Thread(this::markUnfinished, "lab-run-folder-" + finalDir.getFileName());
    }

    /** A run id of the form {@code PREFIX-yyyyMMdd-HHmmss} (UTC). */
    public static String newId(String prefix) {
        return prefix + "-" + ZonedDateTime.now(ZoneOffset.UTC).format(STAMP);
    }

    /** Starts a run folder {@code resultsDir/id}; fails if it exists already. */
    public static RunFolder start(Path resultsDir, String id) throws IOException {
        Path dir = resultsDir.resolve(id);
        if (Files.exists(dir)) {
            throw new FileAlreadyExistsException(dir.toString(), null, "a result folder of that id exists; not overwriting it");
        }
        Path work = resultsDir.resolve("." + id + ".partial");
        deleteTree(work);
        Files.createDirectories(work.resolve("raw"));
        RunFolder f = new RunFolder(dir, work);
        Runtime.getRuntime().addShutdownHook(f.onExit);
        return f;
    }

    /**
     * Writes {@code INTERRUPTED} into the partial folder, if it is still there: what the JVM runs
     * when it exits before {@link #commit()} or {@link #abandon()} (a signal, or an error that
     * ended it). Returns whether it wrote the note.
     */
    boolean markUnfinished() {
        if (!Files.isDirectory(work)) {
            return false;
        }
        try {
            Files.writeString(work.resolve("INTERRUPTED"), "the lab stopped at " + ZonedDateTime.now(ZoneOffset.UTC)
                    + " before this run finished (Ctrl-C, a signal, or an error): it is incomplete; rerun it\n");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void forgetOnExit() {
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs, and finds the folder committed or gone
        }
    }

    /** Where files go while the run is in progress. */
    public Path dir() { return work; }

    /** The {@code raw/} folder of the run in progress. */
    public Path raw() { return work.resolve("raw"); }

    /** Where the folder will be once committed. */
    public Path finalDir() { return finalDir; }

    /** Writes {@code value} as indented JSON to {@code relative} inside the run. */
    public Path writeJson(String relative, Object value) throws IOException {
        Path p = work.resolve(relative);
        Files.createDirectories(p.getParent());
        JSON.writeValue(p.toFile(), value);
        return p;
    }

    /** Writes text to {@code relative} inside the run. */
    public Path writeText(String relative, String text) throws IOException {
        Path p = work.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    /** Moves the finished run into place. */
    public Path commit() throws IOException {
        Files.move(work, finalDir, StandardCopyOption.ATOMIC_MOVE);
        forgetOnExit();
        return finalDir;
    }

    /** Drops the partial folder of a failed run. */
    public void abandon() {
        forgetOnExit();
        try {
            deleteTree(work);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and everything under it; nothing when it does not exist. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Copies the folder {@code from} and everything under it to {@code to} (which must not hold those files yet). */
    public static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }
}
