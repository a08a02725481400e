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
        m.put("tree_modified", dirty == null ? null : !dirty.isEmpty());
        m.put("environment", environment);
        return m;
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
        try {
            List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false)
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
