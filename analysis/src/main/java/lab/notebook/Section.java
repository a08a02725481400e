package lab.notebook;

import lab.analysis.estimate.EstimationStage;
import lab.results.RunDir;
import java.io.IOException;
import java.util.Optional;

/**
 * One part of a notebook, computed from a run's {@code raw/} alone: a fix's pairing, or a
 * calibration. A section that finds none of its raw files returns empty and is left out; one
 * that finds broken files reports them through {@link RunDir#gap} and renders the rest.
 *
 * <p>Made in two stages ({@link EstimationStage}): {@link #estimate} reads raw/ and makes every
 * estimate the section will show, whole; the {@link Estimated} it returns renders them, and
 * computes nothing: an estimate it asks for that the first stage did not make throws.
 */
public interface Section {
    /** The fix or calibration id this section renders (a key of {@code summary.json}'s fixes). */
    String id();

    /**
     * Where the section's summary entry holds its headline's JVM figure per thread count
     * ({@link HeadlineByThreads}), for a comparison of runs to line them up at one thread count;
     * null where the headline is no thread sweep's (the comparison then sets the headlines
     * themselves side by side).
     */
    default HeadlineByThreads headlineByThreads() {
        return null;
    }

    /** The estimation stage: the section's figures from {@code run}'s raw/, or empty when the run holds no raw data for it. */
    Optional<Estimated> estimate(RunDir run) throws IOException;

    /**
     * Both stages: the section estimated, then rendered with estimation forbidden; empty when the
     * run holds no raw data for it. {@link Notebook#write} runs the stages itself, every section's
     * estimation first, so that summary.json carries the record of each.
     */
    default Optional<SectionOutput> render(RunDir run) throws IOException {
        Optional<Estimated> e = estimate(run);
        return e.isEmpty() ? Optional.empty() : Optional.of(EstimationStage.rendering(e.get()::render));
    }
}
