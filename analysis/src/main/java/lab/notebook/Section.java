package lab.notebook;

import lab.results.RunDir;
import java.io.IOException;
import java.util.Optional;

/**
 * One part of a notebook, computed from a run's {@code raw/} alone: a fix's pairing, or a
 * calibration. A section that finds none of its raw files returns empty and is left out; one
 * that finds broken files reports them through {@link RunDir#gap} and renders the rest.
 */
public interface Section {
    /** The fix or calibration id this section renders (a key of {@code summary.json}'s fixes). */
    String id();

    /** The rendered section, or empty when the run holds no raw data for it. */
    Optional<SectionOutput> render(RunDir run) throws IOException;
}
