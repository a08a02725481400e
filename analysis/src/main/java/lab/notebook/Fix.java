package lab.notebook;

/**
 * One entry of the lab's table of fixes: a kernel fix (by the short id of
 * {@code shared/seeds/README.md}) or a calibration entry, with the published figure the
 * notebook puts beside the lab's own. Whether the lab models it is not a fact of the fix but of
 * the lab: a fix is modelled when a {@link Section} renders it ({@link Notebook#write}).
 *
 * @param id          the short id used in code, benchmarks, scenarios and results
 * @param title       one line: what the fix removed
 * @param seedFile    the mailing-list thread the figure comes from (under shared/seeds/), or null
 * @param seedMetric  what the headline compares, in words
 * @param seedValue   the published figure as a ratio, or null (calibration entries have none)
 * @param seedText    the published experiment and figure, quoted from the seed index
 */
public record Fix(String id, String title, String seedFile, String seedMetric, Double seedValue, String seedText) {

    /** A calibration entry measures the lab's parts, not a fix: it has no seed figure. */
    public boolean calibration() {
        return seedFile == null;
    }
}
