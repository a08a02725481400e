package lab.notebook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Verdict;

/**
 * One run's figures of one fix, read back from the run's summary.json for a comparison of runs
 * ({@link CompareSection}): the headline's JVM figure at each thread count, calibrated and raw
 * ({@link HeadlineByThreads}; the headline's own where the section has no such keys or the
 * summary none of them), each with the A/A that gates it; the kernel's figure with its own; the
 * calibration's source; the run's margin. Nothing is estimated here: every figure is the run's own.
 *
 * @param status     why the run has no figures of the fix ("not in this run"); null where it ran
 * @param metric     the headline's metric, in words
 * @param seed       the seed's figure (null: none)
 * @param target     the run's margin M
 * @param calibrated the calibrated figure per thread count (0: the headline's own conditions)
 * @param raw        the raw figure likewise
 * @param kernel     the kernel's figure, at the headline's conditions (null: none)
 * @param baseSource where the calibration's kernel figure came from, the headline's words (null: no calibration)
 */
record RunFigures(String status, String metric, Double seed, double target, TreeMap<Integer, Figure> calibrated,
                  TreeMap<Integer, Figure> raw, Figure kernel, String baseSource) {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The words a pairing's calibration has where its kernel figure came from a committed run, not from the run's own kernel side. */
    private static final Pattern COMMITTED = Pattern.compile("taken from the committed run (\\S+?)[,;]?(?:\\s|$)");

    /** Where a figure comes from: the model calibrated, raw, or the kernel. */
    static final String CALIBRATED = "calibrated";
    static final String RAW = "raw";
    static final String KERNEL = "kernel";

    /**
     * One figure of a run: an estimate as the run's summary holds it ({@code {value, ci95, rounds}}),
     * or, from a summary older than the estimates, a bare value; with the A/A that gates it.
     *
     * @param kind      {@link #CALIBRATED}, {@link #RAW} or {@link #KERNEL}
     * @param threads   the thread count (0: the headline's own conditions, which its metric names)
     * @param estimate  the figure (null: a bare value only)
     * @param bare      the bare value where there is no estimate
     * @param aa        its own A/A control (null: none in the summary)
     * @param aaMissing whether the run has an A/A for this figure elsewhere but the summary holds none at this thread count
     */
    record Figure(String kind, int threads, Estimate estimate, Double bare, Estimate aa, boolean aaMissing) {
        double value() {
            return estimate != null ? estimate.value() : bare;
        }

        /** {@code value [lo–hi]x, verdict} at margin {@code m}, gated by its A/A, as the run's own table has it. */
        String cell(double m) {
            if (estimate == null) {
                return Fmt.ratio(bare) + ", no estimate in its summary";
            }
            return Verdict.brief(estimate, aa, m) + (aaMissing ? " (its summary holds no A/A here)" : "");
        }

        Map<String, Object> json(double m) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("threads", threads == 0 ? null : threads);
            out.put("figure", kind);
            out.put("estimate", estimate == null ? null : estimate.json());
            if (estimate == null) {
                out.put("value", bare);
            }
            out.put("aa", aa == null ? null : aa.json());
            if (aaMissing) {
                out.put("aa_note", "the run has an A/A for this figure, but its summary holds none at this thread count");
            }
            if (estimate != null) {
                out.putAll(Verdict.json(estimate, aa, m));
            }
            return out;
        }
    }

    /** Whether the run has a figure of the fix's model at any thread count (or at the headline's). */
    boolean hasJvm() {
        return !calibrated.isEmpty() || !raw.isEmpty();
    }

    /** The thread counts with a JVM figure (0 alone: the headline's own). */
    Set<Integer> threads() {
        Set<Integer> t = new TreeSet<>(calibrated.keySet());
        t.addAll(raw.keySet());
        return t;
    }

    /** The JVM figure at {@code t}: calibrated where the run has it, else raw; null for none. */
    Figure at(int t) {
        Figure c = calibrated.get(t);
        return c != null ? c : raw.get(t);
    }

    /** The figure of {@code kind} at {@code t}; null for none. */
    Figure of(String kind, int t) {
        return (kind.equals(CALIBRATED) ? calibrated : raw).get(t);
    }

    /** The highest thread count with a JVM figure (0: the headline's own conditions), or -1 for none. */
    int most() {
        Set<Integer> t = threads();
        return t.isEmpty() ? -1 : ((TreeSet<Integer>) t).last();
    }

    /**
     * Where the calibration came from, for a reader: "own kernel" (the run's own kernel side), or
     * "another machine's (run X)" where the pairing took it from the lab's committed run X;
     * null where the run has no calibration.
     */
    String calibration() {
        String run = committedRun();
        return baseSource == null ? null : run != null ? "another machine's (run " + run + ")" : "own kernel";
    }

    /** The committed run the calibration was taken from (null: the run's own, or none). */
    String committedRun() {
        if (baseSource == null) {
            return null;
        }
        Matcher m = COMMITTED.matcher(baseSource);
        return m.find() ? m.group(1) : null;
    }

    /**
     * The figures of {@code fix} in the summary {@code summary} ({@code fixes.FIX}), the per-thread
     * ones at {@code keys} (null: the headline's own only).
     */
    static RunFigures read(JsonNode summary, String fix, HeadlineByThreads keys) {
        JsonNode f = summary.path("fixes").path(fix);
        JsonNode h = f.path("headline");
        boolean quick = summary.path("run").path("quick").asBoolean(false);
        double target = h.path("target").isNumber() ? h.path("target").asDouble() : Verdict.target(quick);
        String metric = h.path("metric").asText("");
        Double seed = h.path("seed").isNumber() ? h.path("seed").asDouble() : null;
        String status = f.path("status").asText("");
        if (!status.isEmpty() || !f.isObject()) {
            return new RunFigures(status.isEmpty() ? "not in this run" : status, metric, seed, target, new TreeMap<>(), new TreeMap<>(),
                    null, null);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> head = h.isObject() ? JSON.convertValue(h, Map.class) : Map.of();
        TreeMap<Integer, Figure> cal = keys == null || keys.calibrated() == null ? new TreeMap<>()
                : byThreads(f, keys.calibrated(), CALIBRATED, head);
        TreeMap<Integer, Figure> raw = keys == null || keys.raw() == null ? new TreeMap<>() : byThreads(f, keys.raw(), RAW, head);
        if (cal.isEmpty() && raw.isEmpty()) {
            Figure c = headline(head, "jvm_calibrated", "aa", CALIBRATED, null);
            Figure r = headline(head, "jvm_raw", "aa_raw", RAW, c == null ? h.path("jvm") : null);
            if (c != null) {
                cal.put(0, c);
            }
            if (r != null) {
                raw.put(0, r);
            }
        }
        Figure kernel = headline(head, "kernel_estimate", "aa_kernel", KERNEL, h.path("kernel"));
        String base = head.get("jvm_calibrated") instanceof Map<?, ?> && h.path("base_source").isTextual() ? h.path("base_source").asText()
                : null;
        return new RunFigures(null, metric, seed, target, cal, raw, kernel, base);
    }

    /** The figure at each thread count under {@code path}; its A/A the {@code aa} beside it, or the headline's where it is the headline's figure. */
    private static TreeMap<Integer, Figure> byThreads(JsonNode fix, String path, String kind, Map<String, Object> head) {
        TreeMap<Integer, Figure> out = new TreeMap<>();
        JsonNode byT = fix;
        for (String k : HeadlineByThreads.before(path)) {
            byT = byT.path(k);
        }
        List<String> after = HeadlineByThreads.after(path);
        Estimate headFigure = Estimate.fromJson(head.get(kind.equals(CALIBRATED) ? "jvm_calibrated" : "jvm_raw"));
        Estimate headControl = HeadlineWords.control(head, kind.equals(CALIBRATED) ? "aa" : "aa_raw");
        boolean hasControl = headControl != null;
        for (Iterator<String> it = byT.fieldNames(); it.hasNext(); ) {
            String t = it.next();
            if (!t.matches("[1-9][0-9]{0,5}")) {
                continue;
            }
            JsonNode parent = byT.path(t);
            for (int i = 0; i < after.size() - 1; i++) {
                parent = parent.path(after.get(i));
            }
            String leaf = after.isEmpty() ? null : after.getLast();
            JsonNode node = leaf == null ? byT.path(t) : parent.path(leaf);
            Estimate e = node.isObject() ? Estimate.fromJson(JSON.convertValue(node, Map.class)) : null;
            if (e == null) {
                // a summary older than the estimates: the median of the samples, a bare value
                JsonNode median = leaf == null ? null : parent.path(leaf + "_median");
                if (median != null && median.isNumber()) {
                    out.put(Integer.parseInt(t), new Figure(kind, Integer.parseInt(t), null, median.asDouble(), null, false));
                }
                continue;
            }
            Estimate aa = parent.path("aa").isObject() ? Estimate.fromJson(JSON.convertValue(parent.path("aa"), Map.class)) : null;
            boolean missing = false;
            if (aa == null && hasControl) {
                if (same(e, headFigure)) {
                    aa = headControl;
                } else {
                    missing = true;
                }
            }
            out.put(Integer.parseInt(t), new Figure(kind, Integer.parseInt(t), e, null, aa, missing));
        }
        return out;
    }

    /** Whether two estimates are one figure as summary.json wrote it: the same value and interval. */
    private static boolean same(Estimate a, Estimate b) {
        return a != null && b != null && a.value() == b.value() && a.rounds() == b.rounds() && a.hasInterval() == b.hasInterval()
                && (!a.hasInterval() || (a.lo() == b.lo() && a.hi() == b.hi()));
    }

    /** The headline's figure {@code key} with its A/A {@code aaKey}; the bare value {@code bare} where there is no estimate; null for none. */
    private static Figure headline(Map<String, Object> head, String key, String aaKey, String kind, JsonNode bare) {
        Estimate e = Estimate.fromJson(head.get(key));
        if (e != null) {
            return new Figure(kind, 0, e, null, HeadlineWords.control(head, aaKey), false);
        }
        return bare != null && bare.isNumber() ? new Figure(kind, 0, null, bare.asDouble(), null, false) : null;
    }
}
