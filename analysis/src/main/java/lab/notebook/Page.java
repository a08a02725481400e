package lab.notebook;

import lab.results.RunDir;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The skeleton every section fills: its markdown in order, its charts by file name (each
 * embedded with the line naming the command that made its data and the one that regenerates
 * it), and its entry of {@code summary.json}, headline first. A section says which parts it
 * has and with what data; the page holds the rest.
 */
public final class Page {
    private final RunDir run;
    private final String data;
    private final String regen;
    private final StringBuilder md = new StringBuilder();
    private final Map<String, String> charts = new LinkedHashMap<>();
    private final Map<String, Object> summary = new LinkedHashMap<>();

    private Page(RunDir run, String data, String regen) {
        this.run = run;
        this.data = data;
        this.regen = regen;
    }

    /** A page of {@code run} for the fix {@code id} ({@code ./lab pair ID} made the data, unless the manifest says). */
    public static Page of(RunDir run, String id) {
        return new Page(run, run.manifest().path("command").asText("./lab pair " + id), "./lab notebook results/" + run.id());
    }

    public RunDir run() {
        return run;
    }

    /** The command that made the run's data. */
    public String data() {
        return data;
    }

    /** Appends markdown as it is. */
    public Page text(String markdown) {
        md.append(markdown);
        return this;
    }

    /** Adds a chart and embeds it: {@code ![ALT](charts/NAME)}, then the data and regenerate line. */
    public Page chart(String name, String svg, String alt) {
        charts.put(name, svg);
        md.append("![").append(alt).append("](charts/").append(name).append(")\n\nData: `").append(data).append("`; chart: `")
                .append(regen).append("`\n\n");
        return this;
    }

    /** An entry of the section's summary, after the headline, in the order put. */
    public Page put(String key, Object value) {
        summary.put(key, value);
        return this;
    }

    /** The links to the fix's async-profiler flamegraphs ({@code flamegraphs/ID/*.html}), or "" for none. */
    public String flamegraphLinks(String id) throws IOException {
        return run.htmlLinks(run.dir().resolve("flamegraphs").resolve(id));
    }

    /** The section, with {@code headline} first in its summary. */
    public SectionOutput build(Map<String, Object> headline) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("headline", headline);
        out.putAll(summary);
        return new SectionOutput(md.toString(), charts, out);
    }
}
