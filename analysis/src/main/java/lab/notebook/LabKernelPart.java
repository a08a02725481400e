package lab.notebook;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.analysis.fidelity.SwitchSweep;
import lab.analysis.fidelity.SwitchSweep.Count;
import lab.analysis.parse.LabAb;
import lab.analysis.parse.Tsv;
import lab.results.RunDir;

/**
 * A fix's part of the lab kernel in its section: its "before" restored behind a runtime switch
 * and run A/B in one boot ({@code raw/<fix>/lab-kernel/}, {@link LabAb}), as the subsection
 * "The lab kernel" ({@link LabKernelText}), the section's {@code lab_kernel} summary, and the
 * headline's kernel figure: the after/before ratio at N = 1 (for a share, the after's share),
 * with the floor of its own A/A. Knows no fix: the facts come from {@code lab-ab.txt}.
 */
public final class LabKernelPart {
    private final String fix;
    private final Map<String, String> facts;
    private final SwitchSweep sweep;

    private LabKernelPart(String fix, Map<String, String> facts, SwitchSweep sweep) {
        this.fix = fix;
        this.facts = facts;
        this.sweep = sweep;
    }

    /**
     * The part of fix {@code fix} from {@code raw/<fix>/lab-kernel/}; empty without
     * {@code lab-ab.tsv}, or when a file is malformed (then a gap of {@code run} names its line).
     */
    public static Optional<LabKernelPart> read(RunDir run, String fix) throws IOException {
        Path dir = run.raw().resolve(fix).resolve("lab-kernel");
        try {
            Optional<LabAb> ab = LabAb.read(dir);
            if (ab.isEmpty()) {
                return Optional.empty();
            }
            if (ab.get().trials().isEmpty()) {
                run.gap(dir.resolve(LabAb.TRIALS), "no trials");
                return Optional.empty();
            }
            Map<String, String> facts = KernelRuns.readEnv(dir.resolve(LabAb.FACTS));
            return Optional.of(new LabKernelPart(fix, facts, SwitchSweep.of(ab.get(), "share".equals(facts.get("metric")), k(facts))));
        } catch (Tsv.Malformed e) {
            run.gap(e.file(), "line " + e.line() + ": " + e.problem());
            return Optional.empty();
        }
    }

    private static Double k(Map<String, String> facts) {
        try {
            return facts.containsKey("ops_per_io") ? Double.valueOf(facts.get("ops_per_io")) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public SwitchSweep sweep() {
        return sweep;
    }

    /** A fact of {@code lab-ab.txt}, "?" where it is missing. */
    public String fact(String key) {
        return facts.getOrDefault(key, "?");
    }

    String fix() {
        return fix;
    }

    /**
     * The subsection, with the headline's calibration base (set beside the guest's CPU per I/O) and
     * prediction (carried to the guest's CPU per I/O), where it has them.
     */
    public String text(Headline head) {
        return text(head.baseNs(), head.predicted());
    }

    /** The subsection with a calibration base and a prediction given as such (either null: none). */
    public String text(Double baseNs, Double predicted) {
        return new LabKernelText(this).text(baseNs, predicted);
    }

    /**
     * The headline's kernel figure from the switch: the headline count's ratio with its floor and a
     * short note of where it comes from; {@code h} as it was where the run has no ratio.
     */
    public Headline onto(Headline h) {
        Count c = sweep.headline();
        if (c == null || c.ratio() == null) {
            return h;
        }
        StringBuilder note = new StringBuilder("lab kernel ").append(fact("kernel")).append(", ").append(fix).append(" switch ")
                .append(fact("before")).append(" vs ").append(fact("after")).append(", ").append(fact("env")).append(", N=").append(c.n());
        note.append(c.floor() == null ? "; no A/A floor" : "; floor " + c.floor().format());
        if (sweep.share()) {
            note.append("; after a/b, before ").append(Fmt.spread(c.before(), 2));
        } else {
            SwitchSweep.Slope s = sweep.slope();
            note.append(s == null ? "; one count, no slope" : "; slope " + Fmt.f(s.line().b(), 2) + " ns/op"
                    + (s.resolved() ? "" : " (not resolved)"));
        }
        return h.kernel(c.ratio(), note.toString()).kernelFloor(c.floor() == null ? null : c.floor().floor());
    }

    /** The section's {@code lab_kernel} entry: the facts, each count's figures, the slope. */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String k : List.of("kernel", "source", "patches", "env", "cpus", "switch", "before", "after", "default", "metric",
                "workload")) {
            m.put(k, facts.get(k));
        }
        m.put("ops_per_io", sweep.k());
        List<Object> counts = new ArrayList<>();
        for (Count c : sweep.counts()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("n", c.n());
            x.put("ratio", Parts.json(c.ratio()));
            x.put("before", Parts.json(c.before()));
            x.put("after", Parts.json(c.after()));
            x.put("aa", Parts.json(c.aa()));
            x.put("noise_floor", c.floor() == null ? null : c.floor().floor());
            x.put("ns_per_io_before", c.nsBefore());
            x.put("ns_per_io_after", c.nsAfter());
            x.put("delta_ns", Parts.json(c.delta()));
            x.put("ops_per_io_before", Parts.json(c.opsBefore()));
            x.put("ops_per_io_after", Parts.json(c.opsAfter()));
            counts.add(x);
        }
        m.put("counts", counts);
        SwitchSweep.Slope s = sweep.slope();
        m.put("slope_ns_per_op", s == null ? null : s.line().b());
        m.put("intercept_ns", s == null ? null : s.line().a());
        m.put("slope_per_round", s == null ? null : Parts.json(s.perRound()));
        m.put("slope_resolved", s == null ? null : s.resolved());
        m.put("derived_delta_ns_n1", s == null ? null : s.delta1());
        m.put("derived_ratio_n1", s == null ? null : s.ratio1());
        Count h = sweep.headline();
        m.put("headline_n", h.n());
        m.put("headline_resolved", h.ratio() == null || h.floor() == null ? null : h.floor().resolves(h.ratio().median()));
        return m;
    }
}
