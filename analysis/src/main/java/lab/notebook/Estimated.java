package lab.notebook;

import java.io.IOException;

/**
 * A section whose figures are made ({@link Section#estimate}): what is left is to render them,
 * which reads the figures and raw/'s files that hold no statistic (flamegraph links, facts),
 * inside {@link lab.analysis.estimate.EstimationStage#rendering}, where any estimate throws.
 */
@FunctionalInterface
public interface Estimated {
    /** The section's markdown, charts and summary entry, from the figures already made. */
    SectionOutput render() throws IOException;
}
