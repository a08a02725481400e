package lab.notebook;

import java.util.Map;

/**
 * What a section contributes: its markdown (figures already linked as {@code charts/NAME}),
 * the SVG charts by file name, and its entry of {@code summary.json}'s {@code fixes}
 * ({@code headline}, {@code jvm}, {@code kernel}); and, for a section that is no fix's pairing
 * (a calibration of the lab's own parts), its estimator in words where it is not
 * {@link lab.analysis.fidelity.RoundRatio#DESCRIPTION} (null: that one).
 */
public record SectionOutput(String markdown, Map<String, String> charts, Map<String, Object> summary, String estimator) {
    public SectionOutput(String markdown, Map<String, String> charts, Map<String, Object> summary) {
        this(markdown, charts, summary, null);
    }
}
