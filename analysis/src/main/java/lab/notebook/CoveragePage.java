package lab.notebook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import lab.analysis.estimate.Verdict;
import lab.results.RunDir;

/**
 * The notebook of a {@code ./lab coverage} run, from its {@code raw/coverage.tsv} (one line per
 * simulated setting, columns by name: {@code lab.fix.CoverageSim.ROW_HEADER}) and
 * {@code raw/design.tsv} (the designs simulated) alone. Every figure is the file's, printed as
 * written: the command estimated them (rates and their Wilson intervals), the page only lays them
 * out and marks those outside the targets the design is held to. {@link Notebook#write} writes this
 * page in place of a pairing's wherever {@code raw/coverage.tsv} exists, so {@code ./lab notebook}
 * remakes it as it remakes any other.
 */
final class CoveragePage {
    static final String FILE = "coverage.tsv";
    static final String DESIGN = "design.tsv";

    /**
     * What the design is held to (issue 52): its headline interval covers the truth 93–97% of the
     * time and its A/A's leaves out 1 at most 5.5% of the time, at log-spreads 0.01–0.06 per round,
     * quick and full, under normal noise (the design's assumption).
     */
    static final double COVERAGE_LO = 0.93;
    static final double COVERAGE_HI = 0.97;
    static final double AA_FALSE_MAX = 0.055;

    /** The columns the page reads from {@code raw/coverage.tsv}. */
    private static final List<String> COLUMNS = List.of("setting", "runs", "coverage", "aa_false_change", "wrong_effect", "mean_rounds",
            "verdicts", "coverage_lo", "coverage_hi", "aa_false_lo", "aa_false_hi", "design", "noise", "spread", "truth", "seed");
    private static final List<String> DESIGN_COLUMNS = List.of("design", "own_rounds", "pilot", "margin", "budget_s", "round_s",
            "max_rounds", "forks", "iterations", "half_width");
    private static final String NA = "n/a";

    /** One line of a tab-separated file, its cells by column name. */
    record Line(Map<String, String> cells) {
        String get(String column) {
            return cells.get(column);
        }

        /** The cell as a number; NaN where it does not apply ({@code n/a}). */
        double num(String column) {
            String v = cells.get(column);
            return v.equals(NA) ? Double.NaN : Double.parseDouble(v);
        }

        boolean nested() {
            return get("design").startsWith("boots");
        }
    }

    private final RunDir run;
    private final List<Line> settings;
    private final List<Line> designs;

    private CoveragePage(RunDir run, List<Line> settings, List<Line> designs) {
        this.run = run;
        this.settings = settings;
        this.designs = designs;
    }

    /** The page of {@code run}, where it is a coverage run (it has {@code raw/coverage.tsv}); empty otherwise. */
    static Optional<CoveragePage> read(RunDir run) throws IOException {
        Path f = run.raw().resolve(FILE);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        return Optional.of(new CoveragePage(run, lines(run, f, COLUMNS), lines(run, run.raw().resolve(DESIGN), DESIGN_COLUMNS)));
    }

    /** The lines of a tab-separated file with a header naming at least {@code columns}; what cannot be read is a gap. */
    private static List<Line> lines(RunDir run, Path f, List<String> columns) throws IOException {
        if (!Files.isRegularFile(f)) {
            run.gap(f, "missing");
            return List.of();
        }
        List<String> all = Files.readAllLines(f);
        List<String> header = all.isEmpty() ? List.of() : List.of(all.getFirst().split("\t", -1));
        List<String> missing = columns.stream().filter(c -> !header.contains(c)).toList();
        if (!missing.isEmpty()) {
            run.gap(f, "no column " + String.join(", ", missing) + " in its header");
            return List.of();
        }
        List<Line> out = new ArrayList<>();
        for (String l : all.subList(1, all.size())) {
            String[] cells = l.split("\t", -1);
            if (l.isBlank()) {
                continue;
            }
            if (cells.length != header.size()) {
                run.gap(f, "a line with " + cells.length + " fields, not " + header.size() + ": " + l);
                continue;
            }
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < cells.length; i++) {
                m.put(header.get(i), cells[i]);
            }
            Line line = new Line(m);
            String bad = unreadable(line, columns);
            if (bad != null) {
                run.gap(f, "a line whose " + bad + " cannot be read: " + l);
                continue;
            }
            out.add(line);
        }
        return out;
    }

    /** The first column of {@code line} that does not hold what it should (a number, a count, the verdicts' counts); null when all do. */
    private static String unreadable(Line line, List<String> columns) {
        for (String c : columns) {
            try {
                switch (c) {
                    case "setting", "design", "noise" -> { }
                    case "verdicts" -> verdicts(line.get(c));
                    case "runs", "seed", "own_rounds", "pilot", "max_rounds", "forks", "iterations" -> Long.parseLong(line.get(c));
                    default -> line.num(c);
                }
            } catch (RuntimeException e) {
                return c;
            }
        }
        return null;
    }

    /** {@code {effect=0, small-change=8, ...}} as a map; empty where the setting has no verdicts. */
    static Map<String, Integer> verdicts(String cell) {
        Map<String, Integer> out = new LinkedHashMap<>();
        String body = cell.replaceAll("^\\{|}$", "").strip();
        if (cell.equals(NA) || body.isEmpty()) {
            return out;
        }
        for (String kv : body.split(",\\s*")) {
            String[] p = kv.split("=", 2);
            out.put(p[0].strip(), Integer.parseInt(p[1].strip()));
        }
        return out;
    }

    String markdown() {
        String id = run.id();
        StringBuilder b = new StringBuilder("# Run `").append(id).append("`\n\n");
        b.append("Made by `").append(run.manifest().path("command").asText("./lab coverage")).append("` on ")
                .append(Notebook.machine(run.manifest())).append(". Regenerate this notebook and summary.json from `raw/` alone (offline,"
                        + " byte-identical): `./lab notebook results/").append(id).append("`.\n\n");
        b.append("## Coverage of the lab's intervals, on simulated runs of known truth\n\n");
        b.append("Every simulated run of a setting goes through the lab's own path: JMH result files written into a run's"
                + " `raw/` as JMH writes them, the run's own rounds, then the headline's rounds added by Stein's two-stage design (its"
                + " budget spent on a simulated clock), the sweep read back as `./lab notebook` reads it, and the verdict gated by the"
                + " A/A (a copy of the base measured like a variant). **Coverage**: how often the headline's 95% interval held its"
                + " true ratio. **A/A false change**: how often the A/A's interval left out 1, whose truth it is. **Wrong effect**:"
                + " how often the headline was called an effect of at least M though its truth lies inside ±M. In brackets, each"
                + " rate's 95% Wilson interval over the setting's runs.\n\n");
        b.append("The design is held to a coverage of ").append(pct(COVERAGE_LO)).append("–").append(pct(COVERAGE_HI))
                .append(" and an A/A false-change rate of at most ").append(pct(AA_FALSE_MAX)).append(" under normal noise, the"
                        + " design's assumption; a figure outside those is in **bold**, under t3 noise too, where the assumption does not"
                        + " hold and the rows show how far the design strays.\n\n");
        headlineTable(b, "### The headline's truth 1 + M/2 (a change smaller than M)", l -> !l.nested() && l.num("truth") != 1);
        headlineTable(b, "### The headline's truth 1 (no change)", l -> !l.nested() && l.num("truth") == 1);
        nestedTable(b);
        design(b);
        b.append("## Files\n\n`raw/coverage.tsv`: one line per setting (the columns this page prints, the verdicts' counts, and the"
                + " seed its runs started from; each setting starts from its own seed, so a line is reproduced by the same `--runs`"
                + " and `--seed` whatever `--threads` ran it). `raw/design.tsv`: the designs simulated, as the lab's `Adaptive` and"
                + " `Stein` set them when the run was made.\n\n");
        b.append("## Gaps\n\n");
        if (run.gaps().isEmpty()) {
            b.append("None: every raw file this notebook looked for was read.\n");
        } else {
            b.append("Files that could not be used (the rest of the run is rendered without them):\n\n");
            run.gaps().forEach(g -> b.append("- ").append(g).append('\n'));
        }
        return b.toString();
    }

    private void headlineTable(StringBuilder b, String title, Predicate<Line> which) {
        List<Line> rows = settings.stream().filter(which).toList();
        if (rows.isEmpty()) {
            return;
        }
        b.append(title).append("\n\n| design | noise | log-spread per round | truth | runs | coverage | A/A false change | wrong effect |"
                + " mean rounds |");
        for (Verdict v : Verdict.values()) {
            b.append(' ').append(v.code).append(" |");
        }
        b.append("\n|---|---|---:|---:|---:|---:|---:|---:|---:|").append("---:|".repeat(Verdict.values().length)).append('\n');
        for (Line l : rows) {
            Map<String, Integer> v = verdicts(l.get("verdicts"));
            b.append("| ").append(l.get("design")).append(" | ").append(l.get("noise")).append(" | ").append(l.get("spread")).append(" | ")
                    .append(l.get("truth")).append(" | ").append(l.get("runs")).append(" | ").append(coverage(l)).append(" | ")
                    .append(mark(l.get("aa_false_change") + " [" + l.get("aa_false_lo") + "–" + l.get("aa_false_hi") + "]",
                            l.num("aa_false_change") > AA_FALSE_MAX)).append(" | ").append(l.get("wrong_effect")).append(" | ")
                    .append(l.get("mean_rounds")).append(" |");
            for (Verdict x : Verdict.values()) {
                b.append(' ').append(v.getOrDefault(x.code, 0)).append(" |");
            }
            b.append('\n');
        }
        b.append('\n');
    }

    private void nestedTable(StringBuilder b) {
        List<Line> rows = settings.stream().filter(Line::nested).toList();
        if (rows.isEmpty()) {
            return;
        }
        b.append("### Rounds nested in boots\n\nA lab kernel's rounds run in boots of the guest, and a boot has noise of its own: the"
                + " boot is the unit (the mean of the boots' means, Student's t on boots − 1 degrees of freedom). Here a boot's"
                + " log noise is as large as a round's, each at the log-spread below.\n\n"
                + "| boots x rounds | noise | log-spread | truth | runs | coverage |\n|---|---|---:|---:|---:|---:|\n");
        for (Line l : rows) {
            b.append("| ").append(l.get("design").replace("boots ", "")).append(" | ").append(l.get("noise")).append(" | ")
                    .append(l.get("spread")).append(" | ").append(l.get("truth")).append(" | ").append(l.get("runs")).append(" | ")
                    .append(coverage(l)).append(" |\n");
        }
        b.append('\n');
    }

    /** What the design is, and the designs the run simulated. */
    private void design(StringBuilder b) {
        b.append("## The design\n\nStein's two-stage procedure (C. Stein, \"A two-sample test for a linear hypothesis whose power is"
                + " independent of the variance\", Ann. Math. Statist. 16(3), 1945, 243–258), as `lab.analysis.estimate.Stein` applies"
                + " it to a headline's rounds: a pilot of n0 rounds, its count fixed in advance, gives the spread s0 of the per-round"
                + " log ratios; the design then asks for N = max(n0, ⌈(t(0.975, n0 − 1) s0 / h)²⌉) rounds in all, h = ln(1 + M) / 2"
                + " (the widest interval that cannot both hold 1 and reach past ±M), and the interval after them is the mean of all"
                + " N rounds' logs ± t(0.975, n0 − 1) s0 / √N: the pilot's spread on the pilot's degrees of freedom, never the spread"
                + " of the rounds the rule chose to add. For normal per-round logs its coverage is exactly 95% however many rounds"
                + " are added, and whether or not a time budget or the round limit ends them first.\n\n");
        if (designs.isEmpty()) {
            return;
        }
        b.append("| design | own rounds | pilot (rounds in all) | margin M | log half-width h | headline budget | a simulated round"
                + " | round limit | forks x iterations a trial |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Line d : designs) {
            b.append("| ").append(d.get("design")).append(" | ").append(d.get("own_rounds")).append(" | ").append(d.get("pilot"))
                    .append(" | ±").append(pct(d.num("margin"))).append(" | ").append(d.get("half_width")).append(" | ")
                    .append(d.get("budget_s")).append(" s | ").append(d.get("round_s")).append(" s | ").append(d.get("max_rounds"))
                    .append(" | ").append(d.get("forks")).append(" x ").append(d.get("iterations")).append(" |\n");
        }
        b.append("\nEach round holds three variants (the base, the candidate and the base's A/A copy) with noise at every level of"
                + " the lab's runs: a drift per round shared by the variants (the within-round ratio cancels it), a round x variant"
                + " effect, a fork effect and per-iteration noise, each normal or Student's t on 3 degrees of freedom scaled to the"
                + " same variance (`lab.fix.CoverageSim` gives their shares); the log-spread is the standard deviation of one"
                + " round's log ratio.\n\n");
    }

    private static String coverage(Line l) {
        double c = l.num("coverage");
        return mark(l.get("coverage") + " [" + l.get("coverage_lo") + "–" + l.get("coverage_hi") + "]", c < COVERAGE_LO || c > COVERAGE_HI);
    }

    private static String mark(String s, boolean outside) {
        return outside ? "**" + s + "**" : s;
    }

    private static String pct(double x) {
        return java.math.BigDecimal.valueOf(x).movePointRight(2).stripTrailingZeros().toPlainString() + "%";
    }

    /** summary.json's {@code coverage}: the targets and every setting's figures, as the file has them. */
    Map<String, Object> summary() {
        Map<String, Object> targets = new LinkedHashMap<>();
        targets.put("coverage", List.of(COVERAGE_LO, COVERAGE_HI));
        targets.put("aa_false_change_max", AA_FALSE_MAX);
        List<Object> rows = new ArrayList<>();
        for (Line l : settings) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("setting", l.get("setting"));
            r.put("design", l.get("design"));
            r.put("noise", l.get("noise"));
            r.put("spread", l.num("spread"));
            r.put("truth", l.num("truth"));
            r.put("runs", Long.parseLong(l.get("runs")));
            r.put("seed", Long.parseLong(l.get("seed")));
            r.put("coverage", rate(l, "coverage", "coverage_lo", "coverage_hi"));
            r.put("aa_false_change", rate(l, "aa_false_change", "aa_false_lo", "aa_false_hi"));
            r.put("wrong_effect", value(l, "wrong_effect"));
            r.put("mean_rounds", l.num("mean_rounds"));
            r.put("verdicts", l.get("verdicts").equals(NA) ? null : verdicts(l.get("verdicts")));
            rows.add(r);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("targets", targets);
        out.put("settings", rows);
        return out;
    }

    /** A rate with its 95% Wilson interval, {@code {value, ci95}}; null where the setting has none. */
    private static Map<String, Object> rate(Line l, String value, String lo, String hi) {
        if (l.get(value).equals(NA)) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("value", l.num(value));
        m.put("ci95", List.of(l.num(lo), l.num(hi)));
        return m;
    }

    private static Double value(Line l, String column) {
        return l.get(column).equals(NA) ? null : l.num(column);
    }
}
