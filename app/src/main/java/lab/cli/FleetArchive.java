package lab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import lab.fix.Calibrations;
import lab.results.RunFolder;

/**
 * What {@code ./lab fleet} ships to each host: the lab at HEAD ({@code git archive}) without
 * {@code results/} (the committed runs, most of the lab's files), with the jars and build stamp
 * when the working tree's sources are HEAD's (./lab built them for this tree just now, so no
 * host builds), and, of results/, only the newest committed run of each paired fix that has a
 * kernel side: its manifest and {@code raw/FIX/kernel/}, where a host that cannot run the kernel
 * side (no root) takes its calibration from, as {@link Calibrations} would from the lab's own
 * results/ (the comparison flags such a calibration as another machine's).
 *
 * @param file the archive (tar.gz)
 * @param bytes its size
 * @param calibrationRuns the committed runs shipped for calibration
 * @param withJars whether the jars went with it
 */
record FleetArchive(Path file, long bytes, List<String> calibrationRuns, boolean withJars) {

    /** Packs the lab for the fixes {@code fixes} into {@code archive}. */
    static FleetArchive pack(Path archive, List<String> fixes) throws IOException, InterruptedException {
        return pack(archive, fixes, List.of());
    }

    /** {@link #pack(Path, List)} with {@code extra}, committed paths under results/ a host's command reads too. */
    static FleetArchive pack(Path archive, List<String> fixes, List<String> extra) throws IOException, InterruptedException {
        Path root = Lab.root();
        Path tar = archive.resolveSibling(archive.getFileName() + ".tar");
        run(List.of("git", "-C", root.toString(), "archive", "--format=tar", "-o", tar.toString(), "HEAD", "--", ".",
                ":(exclude)results"));
        List<String> runs = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (String fix : fixes) {
            List<Path> kernelRuns = Calibrations.committedKernelRuns(root.resolve("results"), fix);
            if (!kernelRuns.isEmpty()) {
                String run = "results/" + kernelRuns.getFirst().getFileName();
                runs.add(run.substring("results/".length()));
                paths.addAll(List.of(run + "/manifest.json", run + "/raw/" + fix + "/kernel"));
            }
        }
        for (String e : extra) {
            paths.add(e);
            String run = e.substring("results/".length(), e.indexOf('/', "results/".length()));
            if (!runs.contains(run)) {
                runs.add(run);
            }
        }
        if (!paths.isEmpty()) {
            Path more = archive.resolveSibling(archive.getFileName() + ".results.tar");
            List<String> cmd = new ArrayList<>(List.of("git", "-C", root.toString(), "archive", "--format=tar", "-o",
                    more.toString(), "HEAD", "--"));
            cmd.addAll(paths);
            run(cmd);
            run(List.of("tar", "-Af", tar.toString(), more.toString()));
            Files.delete(more);
        }
        boolean jars = addJars(root, tar);
        run(List.of("gzip", "-f", tar.toString()));
        Files.move(tar.resolveSibling(tar.getFileName() + ".gz"), archive, StandardCopyOption.REPLACE_EXISTING);
        return new FleetArchive(archive, Files.size(archive), runs, jars);
    }

    /** The jars and build stamp, when the tree's build inputs are HEAD's; whether they went in. */
    private static boolean addJars(Path root, Path tar) throws IOException, InterruptedException {
        List<String> status = new ArrayList<>(List.of("git", "-C", root.toString(), "status", "--porcelain", "--"));
        for (String glob : Lab.listProperty("lab.build.inputs")) {
            // the shell's globs as git's (a plain pathspec '*/src' matches no file under app/src: measured)
            status.addAll(List.of(":(glob)" + glob, ":(glob)" + glob + "/**"));
        }
        String dirty = run(status);
        Path stamp = Lab.state().resolve("build.stamp");
        List<String> jars = Lab.listProperty("lab.jars");
        if (!dirty.isBlank() || !Files.isRegularFile(stamp) || !jars.stream().allMatch(j -> Files.isRegularFile(root.resolve(j)))) {
            return false;
        }
        Path staged = Files.createTempDirectory(tar.getParent(), "stamp");
        try {
            Files.createDirectories(staged.resolve(".lab"));
            Files.copy(stamp, staged.resolve(".lab/build.stamp"));
            List<String> add = new ArrayList<>(List.of("tar", "-rf", tar.toString(), "-C", root.toString()));
            add.addAll(jars);
            run(add);
            run(List.of("tar", "-rf", tar.toString(), "-C", staged.toString(), ".lab/build.stamp"));
        } finally {
            RunFolder.deleteTree(staged);
        }
        return true;
    }

    /** The archive in words, for the run's log. */
    String describe() {
        return String.format("%.1f MB: the lab at HEAD without results/%s%s", bytes / 1e6,
                withJars ? ", its jars" : " (no jars: the tree differs from HEAD, each host builds)",
                calibrationRuns.isEmpty() ? "" : ", and the kernel side of " + String.join(", ", calibrationRuns)
                        + " (where a host without root takes its calibration from)");
    }

    /** Runs {@code cmd}; its stdout; an IOException naming it when it fails. */
    static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
        return out;
    }
}
