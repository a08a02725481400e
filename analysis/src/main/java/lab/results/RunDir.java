package lab.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A run folder as the notebook reads it: {@code manifest.json} and {@code raw/}, plus the gaps
 * found while reading (a truncated, empty or foreign file: named, with what was wrong, and
 * stated in the notebook, while the rest of the run is still rendered).
 */
public final class RunDir {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final JsonNode manifest;
    private final List<String> gaps = new ArrayList<>();

    private RunDir(Path dir, JsonNode manifest) {
        this.dir = dir;
        this.manifest = manifest;
    }

    /** Opens a run folder; it must have {@code raw/}. A broken manifest becomes a gap. */
    public static RunDir open(Path dir) throws IOException {
        if (!Files.isDirectory(dir.resolve("raw"))) {
            throw new IOException(dir + ": not a run folder (no raw/)");
        }
        RunDir run = new RunDir(dir, null);
        Path m = dir.resolve("manifest.json");
        JsonNode manifest = null;
        if (Files.exists(m)) {
            try {
                manifest = JSON.readTree(m.toFile());
            } catch (IOException e) {
                run.gap(m, "not readable JSON");
            }
        } else {
            run.gap(m, "missing");
        }
        RunDir opened = new RunDir(dir, manifest == null ? JSON.createObjectNode() : manifest);
        opened.gaps.addAll(run.gaps);
        return opened;
    }

    public Path dir() { return dir; }

    public Path raw() { return dir.resolve("raw"); }

    /** {@code raw/SUB} when it exists, else {@code raw/} (older runs kept one benchmark flat in raw/). */
    public Path rawFor(String sub) {
        Path p = raw().resolve(sub);
        return Files.isDirectory(p) ? p : raw();
    }

    public JsonNode manifest() { return manifest; }

    /** The run's id: the manifest's {@code run_id} (a run is written under a temporary name), else the folder's name. */
    public String id() {
        String id = manifest.path("run_id").asText("");
        return id.isEmpty() ? dir.toAbsolutePath().normalize().getFileName().toString() : id;
    }

    /** Records a file that could not be parsed, with what was wrong. */
    public void gap(lab.analysis.MalformedResultException e) {
        gap(e.file(), e.problem());
    }

    /**
     * Markdown links to the HTML files in {@code dir} (flamegraphs), sorted, as
     * {@code [name](relative/path/name.html)} joined with ", "; empty when there are none.
     */
    public String htmlLinks(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return "";
        }
        List<String> names;
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            names = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".html")).sorted().toList();
        }
        String rel = relative(dir);
        return String.join(", ", names.stream().map(n -> "[" + n.replace(".html", "") + "](" + rel + "/" + n + ")").toList());
    }

    /** Records a file the notebook could not use; {@code file} is shown relative to the run. */
    public void gap(Path file, String problem) {
        gaps.add("`" + relative(file) + "`: " + problem);
    }

    public List<String> gaps() { return List.copyOf(gaps); }

    /** {@code file} relative to the run folder, with forward slashes. */
    public String relative(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        Path base = dir.toAbsolutePath().normalize();
        return abs.startsWith(base) ? base.relativize(abs).toString() : abs.toString();
    }
}
