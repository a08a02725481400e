package lab.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a result folder was made on and by: host, cores, CPU model, kernel, JDK, the lab's
 * commit and the exact command line. Written as {@code manifest.json} at the top of every run.
 * A fact that cannot be read is recorded as null and never guessed.
 */
public final class Manifest {
    private Manifest() {}

    /** The manifest of a run started now by {@code commandLine}, on {@code environment} (e.g. "jvm"). */
    public static Map<String, Object> describe(Path labRoot, String commandLine, String environment) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("created", Instant.now().toString());
        m.put("command", commandLine);
        m.put("host", readTrimmed(Path.of("/proc/sys/kernel/hostname")));
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("cpu_model", cpuModel());
        m.put("kernel", readTrimmed(Path.of("/proc/sys/kernel/osrelease")));
        m.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        m.put("commit", git(labRoot, "rev-parse", "HEAD"));
        String dirty = git(labRoot, "status", "--porcelain", "--untracked-files=no");
        List<String> untracked = untracked(labRoot);
        m.put("tree_modified", dirty == null ? null : !dirty.isEmpty() || !untracked.isEmpty());
        m.put("environment", environment);
        return m;
    }

    /**
     * What a reproducer needs beyond the commit, into {@code m}: the tools' versions ({@code fio --version},
     * {@code versions} such as JMH's and async-profiler's from the build) and, when the tree is
     * modified, its diff against HEAD written to {@code raw/tree.diff} (named, with its size, in
     * {@code tree_diff}): the tracked files' changes and every untracked file git does not ignore
     * (outside {@code results/}) as a new file, so that {@code git apply} on the commit rebuilds
     * the tree that ran.
     */
    public static void reproducer(Map<String, Object> m, Path labRoot, Path rawDir, Map<String, String> versions)
            throws IOException {
        Map<String, Object> tools = new LinkedHashMap<>(versions);
        tools.put("fio", run(labRoot, "fio", "--version"));
        m.put("tools", tools);
        String tracked = git(labRoot, "diff", "HEAD");
        StringBuilder all = new StringBuilder(tracked == null ? "" : tracked);
        for (String path : untracked(labRoot)) {
            all.append(all.isEmpty() ? "" : "\n").append(newFileDiff(labRoot, path));
        }
        String diff = all.toString();
        if (!diff.isEmpty()) {
            Files.createDirectories(rawDir);
            Files.writeString(rawDir.resolve("tree.diff"), diff + "\n");
            m.put("tree_diff", "raw/tree.diff (" + diff.lines().count() + " lines)");
        } else {
            m.put("tree_diff", null);
        }
    }

    /** Untracked files git does not ignore, outside results/ (runs being written there are not source). */
    private static List<String> untracked(Path labRoot) {
        String out = git(labRoot, "ls-files", "--others", "--exclude-standard");
        return out == null || out.isEmpty() ? List.of()
                : out.lines().filter(p -> !p.startsWith("results/")).sorted().toList();
    }

    /** An untracked file as git's new-file diff (binary files named only). */
    private static String newFileDiff(Path labRoot, String path) {
        StringBuilder b = new StringBuilder("diff --git a/" + path + " b/" + path + "\nnew file mode 100644\n");
        try {
            byte[] bytes = Files.readAllBytes(labRoot.resolve(path));
            String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
            if (text.indexOf('\0') >= 0 || !java.util.Arrays.equals(bytes, text.getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
                return b.append("Binary files /dev/null and b/").append(path).append(" differ").toString();
            }
            List<String> lines = text.lines().toList();
            b.append("--- /dev/null\n+++ b/").append(path).append("\n@@ -0,0 +1,").append(lines.size()).append(" @@");
            lines.forEach(l -> b.append("\n+").append(l));
            if (!text.isEmpty() && !text.endsWith("\n")) {
                b.append("\n\\ No newline at end of file");
            }
        } catch (IOException e) {
            b.append("(unreadable: ").append(e.getMessage()).append(')');
        }
        return b.toString();
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    private static String readTrimmed(Path p) {
        try {
            return Files.readString(p).trim();
        } catch (IOException e) {
            return null;
        }
    }

    private static String git(Path dir, String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        return run(dir, cmd.toArray(String[]::new));
    }

    /** A command's standard output, trimmed; null when it cannot run or fails. */
    private static String run(Path dir, String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
