package lab.notebook;

import java.util.Map;

/**
 * What a section contributes: its markdown (figures already linked as {@code charts/NAME}),
 * the SVG charts by file name, and its entry of {@code summary.json}'s {@code fixes}
 * ({@code headline}, {@code jvm}, {@code kernel}).
 */
public record SectionOutput(String markdown, Map<String, String> charts, Map<String, Object> summary) {}
