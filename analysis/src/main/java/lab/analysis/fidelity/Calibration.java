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
 * <p>Where the fix's shared lines are touched at both ends of a window inside the I/O (the
 * partition's accounting, from submission to completion), where the base is spent matters as
 * much as how much: spent all inside the window, one I/O's end and the next one's start touch
 * the line back to back, one visit where the kernel makes two. So the base splits: {@code userNs},
 * the kernel's CPU outside the window as the tool measured it (its threads' user share: fio's own
 * loop; the system call's way in and out is kernel time and stays in the device's share, so this
 * is the least the window excludes), is spent by the submitting thread between a completion and
 * the next submission; the rest ({@link #deviceNs()}) in the device. Fixes without such a window
 * pass no share and spend it all in the device.
 *
 * @param baseNs        ns of uncontended CPU added per model I/O, in all
 * @param userNs        of it, ns spent by the submitter between a completion and the next submission (0: none)
 * @param kernelNsPerIo the kernel's task-clock ns per I/O it came from
 * @param kernelSource  which run: device, native or guest, tool, jobs (or the committed run it was taken from)
 * @param modelNsPerIo  the model's own ns per I/O without base (its uncontended cost), subtracted
 * @param modelSource   which model run: variant, threads, the pre-run's file
 * @param kernelLo      the kernel figure's 95% interval, lower end (0: none)
 * @param kernelHi      its upper end (0: none)
 */
public record Calibration(long baseNs, long userNs, double kernelNsPerIo, String kernelSource, double modelNsPerIo, String modelSource,
                          double kernelLo, double kernelHi) {
    public static final String FILE = "calibration.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * The base from the two figures: their difference, never below 0; of it the kernel's
     * {@code userShare} (NaN: none) of its CPU per I/O outside the device, never more than the base.
     */
    public static Calibration of(double kernelNsPerIo, double userShare, String kernelSource, double modelNsPerIo, String modelSource) {
        return of(kernelNsPerIo, userShare, kernelSource, modelNsPerIo, modelSource, Double.NaN, Double.NaN);
    }

    /** {@link #of(double, double, String, double, String)} with the kernel figure's 95% interval (NaN: none). */
    public static Calibration of(double kernelNsPerIo, double userShare, String kernelSource, double modelNsPerIo, String modelSource,
                                 double kernelLo, double kernelHi) {
        long base = Math.max(0, Math.round(kernelNsPerIo - modelNsPerIo));
        long user = Double.isFinite(userShare) && userShare > 0 ? Math.min(base, Math.round(kernelNsPerIo * userShare)) : 0;
        return new Calibration(base, user, kernelNsPerIo, kernelSource, modelNsPerIo, modelSource,
                Double.isFinite(kernelLo) ? kernelLo : 0, Double.isFinite(kernelHi) ? kernelHi : 0); // 0: no interval, in the JSON
    }

    /**
     * The base's 95% interval, {@code [lo, hi]} ns, from the kernel figure's over its rounds (the
     * probe's range too where the figure was scaled by it), less the model's own ns; null where the
     * run has none (one round, or a calibration written before intervals, whose ends read as 0).
     */
    public double[] baseInterval() {
        if (!(kernelLo > 0) || !(kernelHi > 0) || !Double.isFinite(kernelLo) || !Double.isFinite(kernelHi)) {
            return null;
        }
        return new double[] {Math.max(0, kernelLo - modelNsPerIo), Math.max(0, kernelHi - modelNsPerIo)};
    }

    /** ns of the base the device spends in its submit: the base less the submitter's. */
    public long deviceNs() { return baseNs - userNs; }

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
                + " per I/O (%s) less the model's own %.1f ns (%s)", baseNs, kernelNsPerIo, kernelSource, modelNsPerIo, modelSource)
                + (baseInterval() == null ? "" : String.format(java.util.Locale.ROOT, "; the base's 95%% interval over the kernel's"
                + " rounds %.0f–%.0f ns", baseInterval()[0], baseInterval()[1]))
                + (userNs == 0 ? "" : String.format(java.util.Locale.ROOT, "; of it %d ns (the tool's user share of the kernel's"
                + " CPU, %.1f%%) spent by the submitting thread between a completion and its next submission, the other %d ns"
                + " in the device's submit", userNs, 100.0 * userNs / kernelNsPerIo, deviceNs()));
    }
}
