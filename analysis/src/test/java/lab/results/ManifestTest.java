package lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reproducer's tree diff rebuilds the tree that ran: applied to a clone of the commit, the files are the same. */
class ManifestTest {
    @TempDir
    Path tmp;

    private static void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString(), "-c", "user.name=t", "-c", "user.email=t@t"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
    }

    @Test
    void theTreeDiffHoldsTrackedChangesAndUntrackedFilesAndAppliesToTheCommit() throws Exception {
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo.resolve("src"));
        Files.writeString(repo.resolve("src/A.java"), "class A {}\n");
        Files.writeString(repo.resolve(".gitignore"), "target/\n");
        git(repo, "init", "-q");
        git(repo, "add", ".");
        git(repo, "commit", "-q", "-m", "one");
        Files.writeString(repo.resolve("src/A.java"), "class A { int x; }\n");
        Files.writeString(repo.resolve("src/B.java"), "class B {}\nno newline at the end");
        Files.createDirectories(repo.resolve("target"));
        Files.writeString(repo.resolve("target/ignored.txt"), "built\n");
        Files.createDirectories(repo.resolve("results/run"));
        Files.writeString(repo.resolve("results/run/NOTEBOOK.md"), "a run being written\n");

        Map<String, Object> m = Manifest.describe(repo, "./lab pair x", "jvm");
        assertEquals(true, m.get("tree_modified"));
        Path raw = repo.resolve("results/run/raw");
        Map<String, Object> r = new LinkedHashMap<>();
        Manifest.reproducer(r, repo, raw, Map.of("jmh", "1.37"));
        String diff = Files.readString(raw.resolve("tree.diff"));
        assertTrue(diff.contains("b/src/B.java") && !diff.contains("ignored.txt") && !diff.contains("NOTEBOOK.md"), diff);
        assertTrue(((String) r.get("tree_diff")).startsWith("raw/tree.diff ("), r.toString());

        Path clone = tmp.resolve("clone");
        git(tmp, "clone", "-q", repo.toString(), clone.toString());
        git(clone, "apply", raw.resolve("tree.diff").toString());
        assertEquals(Files.readString(repo.resolve("src/A.java")), Files.readString(clone.resolve("src/A.java")));
        assertEquals(Files.readString(repo.resolve("src/B.java")), Files.readString(clone.resolve("src/B.java")));
    }
}
