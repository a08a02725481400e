package lab.analysis.fidelity;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a fix's calibrated model got its base cost: the kernel's measured CPU per I/O for the
 * fix's job on a real device, less the model's own uncontended ns per I/O, is the uncontended work
 * the calibrated model adds to every I/O ({@code base_ns}), so that a shared line weighs in the
 * model's I/O what it weighs in the kernel's. Written by the pairing as
 * {@code raw/<fix>/calibration.json}, read by the section.
 *
 * @param baseNs        ns of uncontended CPU added per model I/O
 * @param kernelNsPerIo the kernel's task-clock ns per I/O it came from
 * @param kernelSource  which run: device, native or guest, tool, jobs (or the committed run it was taken from)
 * @param modelNsPerIo  the model's own ns per I/O without base (its uncontended cost), subtracted
 * @param modelSource   which model run: variant, threads, the pre-run's file
 */
public record Calibration(long baseNs, double kernelNsPerIo, String kernelSource, double modelNsPerIo, String modelSource) {
    public static final String FILE = "calibration.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The base from the two figures: their difference, never below 0. */
    public static Calibration of(double kernelNsPerIo, String kernelSource, double modelNsPerIo, String modelSource) {
        return new Calibration(Math.max(0, Math.round(kernelNsPerIo - modelNsPerIo)), kernelNsPerIo, kernelSource,
                modelNsPerIo, modelSource);
    }

    public void write(Path fixRawDir) throws IOException {
        Files.createDirectories(fixRawDir);
        JSON.writeValue(fixRawDir.resolve(FILE).toFile(), this);
    }

    /** The calibration of a run's fix, or null when the run has none (made before calibration existed, or skipped). */
    public static Calibration read(Path fixRawDir) throws IOException {
        Path f = fixRawDir.resolve(FILE);
        return Files.exists(f) ? JSON.readValue(f.toFile(), Calibration.class) : null;
    }

    /** In words, for the notebook: "+N ns per I/O: the kernel's K ns (SOURCE) less the model's M ns (SOURCE)". */
    public String describe() {
        return String.format(java.util.Locale.ROOT, "%d ns of uncontended CPU per model I/O: the kernel's %.0f ns of task-clock"
                + " per I/O (%s) less the model's own %.1f ns (%s)", baseNs, kernelNsPerIo, kernelSource, modelNsPerIo, modelSource);
    }
}
