package lab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import lab.analysis.MalformedResultException;
import lab.analysis.flame.FlameGraphSvg;

/**
 * The SVGs of the kernel flamegraphs a scenario recorded. kernel-scripts' {@code _kernel_flamegraph}
 * writes {@code NAME.kernel.collapsed.gz} (perf record, folded); after the scenario this renders
 * each to {@code NAME.kernel.svg} beside it, titled as the scripts used to title it, so a run's
 * raw/ holds the same files as when the scripts called back into {@code ./lab flamegraph}. A file
 * that will not render gets {@code NAME.kernel-flamegraph-missing.txt} instead; it never fails
 * the run.
 */
final class KernelFlamegraphs {
    static final String COLLAPSED = ".kernel.collapsed.gz";

    private KernelFlamegraphs() {}

    /** The title of {@code NAME}'s SVG. */
    static String title(String name) {
        return name + ": perf record -e cpu-clock -g -a (kernel frames _[k])";
    }

    /**
     * Renders every {@code NAME.kernel.collapsed.gz} under {@code dir} (any depth) whose
     * {@code NAME.kernel.svg} is missing or older; returns how many it rendered.
     */
    static int render(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        List<Path> found;
        try (Stream<Path> s = Files.walk(dir)) {
            found = s.filter(f -> f.getFileName().toString().endsWith(COLLAPSED) && Files.isRegularFile(f)).sorted().toList();
        }
        int n = 0;
        for (Path gz : found) {
            String file = gz.getFileName().toString();
            String name = file.substring(0, file.length() - COLLAPSED.length());
            Path svg = gz.resolveSibling(name + ".kernel.svg");
            if (Files.exists(svg) && Files.getLastModifiedTime(svg).compareTo(Files.getLastModifiedTime(gz)) >= 0) {
                continue;
            }
            Path tmp = Files.createTempFile("lab-kernel-", ".collapsed");
            try {
                try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
                FlameGraphSvg.render(tmp, svg, title(name));
                n++;
            } catch (IOException | MalformedResultException e) {
                Files.writeString(gz.resolveSibling(name + ".kernel-flamegraph-missing.txt"),
                        "could not render " + file + ": " + String.valueOf(e.getMessage()).replace(tmp.toString(), file) + "\n");
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        return n;
    }
}
