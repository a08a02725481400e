package lab.notebook;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.analysis.parse.LabAb;

/**
 * The model's contention beside the kernel's, estimated once: the model's counts on the host and
 * in the guest ({@link ModelContention}, either null), and the kernel's ({@link LabKernelContention},
 * null for an atomic switch or a run without traced trials). For a lock: per side, whether the
 * model's added contentions per added acquisition are within {@value #FACTOR}x of the kernel's
 * ({@link Agreement}, from the two intervals). For an atomic switch: per N, the model's handoffs
 * per I/O beside the kernel's counted operations per I/O (the A/B's trials: ops_delta / ios).
 *
 * @param host       the model's counts on the host; null where none
 * @param guest      the model's counts in the guest; null where none
 * @param agreements per side that has an added split, its verdict against the kernel's
 * @param ops        for an atomic switch, per N ≥ 1 of the kernel's sweep; empty for a lock
 * @param c2c        lab-ab.txt's {@code c2c} line (why the kernel's HITM was or was not sampled); null where none
 */
public record ContentionLineup(ModelContention host, ModelContention guest, List<Agreement> agreements, List<OpsRow> ops, String c2c) {
    /** The factor the model's contention frequency must be within of the kernel's. */
    public static final double FACTOR = 1.5;

    /** Where the model's figure lies against the kernel's. */
    public enum Within {
        /** Both ends of the ratio's interval inside [1/FACTOR, FACTOR]. */
        INSIDE,
        /** The whole interval outside [1/FACTOR, FACTOR]. */
        OUTSIDE,
        /** Undecided: the interval straddles an end, or there is none. */
        UNDECIDED,
        /**
         * Neither side contended: the kernel found none of its acquisitions taken (its rule-of-three
         * bound) and the model none in any round; the same answer, with no ratio to take.
         */
        NEITHER
    }

    /**
     * The model's added contentions per added acquisition ({@code where}: host or guest) over the
     * kernel's, the ratio's interval taken end to end from the two (independent) intervals as the
     * scorecard takes it ({@link LabKernelPart.Scorecard}), and its verdict; lo and hi NaN where
     * either side has no interval or the kernel's lower end is not above 0.
     */
    public record Agreement(String where, ModelContention.Added model, LabKernelContention.Added kernel, double lo, double hi,
                            Within within) {}

    /** An atomic switch at count N: the kernel's operations per I/O, the model's handoffs per I/O (host, guest; null where none). */
    public record OpsRow(int count, Estimate kernelOpsPerIo, Estimate hostHandoffsPerIo, Estimate guestHandoffsPerIo) {}

    /** The lineup of a part; null where the model counted nothing. */
    static ContentionLineup of(ModelContention host, ModelContention guest, LabKernelContention kernel, LabAb ab, Map<String, String> facts) {
        if (host == null && guest == null) {
            return null;
        }
        List<Agreement> agreements = new ArrayList<>();
        LabKernelContention.Added k = kernel == null ? null : kernel.addedBefore();
        for (ModelContention m : new ModelContention[] {host, guest}) {
            if (m != null && k != null && !m.lines()) {
                ModelContention.Added a = m.estimateAddedBefore(k.from(), k.to());
                if (a != null) {
                    agreements.add(agreement(m == host ? "host" : "guest", a, k));
                }
            }
        }
        List<OpsRow> ops = new ArrayList<>();
        ModelContention any = host != null ? host : guest;
        if (any.lines()) {
            SortedSet<Integer> ns = new TreeSet<>();
            ab.trials().forEach(t -> ns.add(t.count()));
            for (int n : ns) {
                List<Double> per = ab.trials().stream().filter(t -> t.count() == n && t.variant().equals(LabAb.BEFORE) && t.ios() > 0)
                        .map(t -> t.opsDelta() / t.ios()).toList();
                ops.add(new OpsRow(n, Estimator.mean(per), estimateHandoffs(host, n), estimateHandoffs(guest, n)));
            }
        }
        return new ContentionLineup(host, guest, List.copyOf(agreements), List.copyOf(ops), facts.get("c2c"));
    }

    private static Estimate estimateHandoffs(ModelContention m, int n) {
        ModelContention.Cell c = m == null ? null : m.cell(n, LabAb.BEFORE);
        return c == null ? null : c.handoffsPerIo();
    }

    /**
     * {@code model}'s frequency over {@code kernel}'s, within {@link #FACTOR} or not; {@link Within#NEITHER}
     * where the kernel counted no contention and the model's upper end is 0 (every round none).
     */
    static Agreement agreement(String where, ModelContention.Added model, LabKernelContention.Added kernel) {
        Estimate m = model.frequency();
        Estimate k = kernel.frequency();
        if (!Double.isNaN(kernel.noneBound()) && m != null && m.hasInterval() && m.hi() == 0) {
            return new Agreement(where, model, kernel, Double.NaN, Double.NaN, Within.NEITHER);
        }
        LabKernelPart.Scorecard s = m == null || k == null ? null : LabKernelPart.Scorecard.of(k, m);
        if (s == null || s.lo() == null) {
            return new Agreement(where, model, kernel, Double.NaN, Double.NaN, Within.UNDECIDED);
        }
        double lo = s.lo();
        double hi = s.hi();
        Within w = lo >= 1 / FACTOR && hi <= FACTOR ? Within.INSIDE : hi < 1 / FACTOR || lo > FACTOR ? Within.OUTSIDE : Within.UNDECIDED;
        return new Agreement(where, model, kernel, lo, hi, w);
    }

    /** The model's added split on {@code where}'s side ("host", "guest"); null where none. */
    public Agreement agreement(String where) {
        return agreements.stream().filter(a -> a.where().equals(where)).findFirst().orElse(null);
    }

    /** The summary's entry: each side's model counts, the verdicts, the atomic rows. */
    Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("model_host", host == null ? null : host.summary());
        m.put("model_guest", guest == null ? null : guest.summary());
        List<Object> as = new ArrayList<>();
        for (Agreement a : agreements) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("where", a.where());
            x.put("from_n", a.model().from());
            x.put("to_n", a.model().to());
            x.put("model_contentions_per_added_acquisition", Parts.json(a.model().frequency()));
            x.put("model_wait_ns_per_added_acquisition", Parts.json(a.model().waitPerOpNs()));
            x.put("kernel_contentions_per_added_op", Parts.json(a.kernel().frequency()));
            x.put("ratio_lo", Double.isNaN(a.lo()) ? null : a.lo());
            x.put("ratio_hi", Double.isNaN(a.hi()) ? null : a.hi());
            x.put("factor", FACTOR);
            x.put("within", a.within().name().toLowerCase(java.util.Locale.ROOT));
            as.add(x);
        }
        m.put("agreements", as);
        List<Object> os = new ArrayList<>();
        for (OpsRow o : ops) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("n", o.count());
            x.put("kernel_ops_per_io", Parts.json(o.kernelOpsPerIo()));
            x.put("model_handoffs_per_io", Parts.json(o.hostHandoffsPerIo()));
            x.put("model_in_guest_handoffs_per_io", Parts.json(o.guestHandoffsPerIo()));
            os.add(x);
        }
        m.put("ops", os);
        m.put("c2c", c2c);
        return m;
    }
}
