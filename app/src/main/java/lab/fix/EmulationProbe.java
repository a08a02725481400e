package lab.fix;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.analysis.Stats;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.Parts;

/**
 * Where a dm scenario's kernel side ran, by its {@code env.txt}'s {@code environment}: natively
 * ({@code native}), or in the lab's guest VM (the host kernel lacks a module the scenario needs:
 * device-mapper, dm-thin-pool, brd) under qemu TCG ({@code guest VM, tcg, ...}: emulated) or KVM
 * ({@code guest VM, kvm, ...}: virtualised, the guest's kernel code running at the CPU's own
 * speed); and the scenarios' emulation probe that scales a TCG guest's figures:
 * the same zram 4k randread (fio psync, 1 job) on the host and in the guest, by round
 * ({@code tcg-zram-host-rK.fio.*}, {@code tcg-zram-guest-rK.fio.*}; kernel-scripts' dc_emulation_probe).
 * The guest's task-clock per I/O over the host's is how many times slower the guest's kernel runs
 * I/O code; a kernel figure divided by it is an estimate of the native figure. The dm fixes
 * (dm-css-ref, thin-bufio-lock) share it for their calibration's kernel figure and their kernel tables.
 */
public final class EmulationProbe {
    private static final Pattern PROBE = Pattern.compile("tcg-zram-(host|guest)-r(\\d+)");

    private final KernelRuns runs;
    private final Map<Integer, KernelRuns.Row> host = new TreeMap<>();
    private final Map<Integer, KernelRuns.Row> guest = new TreeMap<>();

    /** Guest over host task-clock per I/O of the probe, per round, median [min–max]; null without both sides. */
    private final Stats.Spread factor;

    private EmulationProbe(KernelRuns runs) {
        this.runs = runs;
        for (KernelRuns.Row row : runs.rows()) {
            if (isProbe(row)) {
                Matcher m = PROBE.matcher(row.job());
                m.matches();
                (m.group(1).equals("host") ? host : guest).put(Integer.parseInt(m.group(2)), row);
            }
        }
        List<Double> f = new ArrayList<>();
        guest.forEach((r, g) -> {
            KernelRuns.Row h = host.get(r);
            if (h != null) {
                f.add(g.taskClockNsPerIo() / h.taskClockNsPerIo());
            }
        });
        this.factor = f.isEmpty() ? null : Stats.spread(f);
    }

    /** The probe of a kernel folder's runs (none where they hold no probe rows). */
    public static EmulationProbe of(KernelRuns runs) {
        return new EmulationProbe(runs);
    }

    /** Whether {@code row} is one side of the probe (fio, a finite task-clock per I/O): not one of the fix's runs. */
    public static boolean isProbe(KernelRuns.Row row) {
        return PROBE.matcher(row.job()).matches() && row.tool().equals("fio") && Double.isFinite(row.taskClockNsPerIo());
    }

    /** Whether the runs ran under emulation (TCG, by env.txt's {@code environment}): then only in-run ratios are data. */
    public boolean emulated() {
        return emulated(runs.env());
    }

    /** Whether {@code env} (an env.txt) says its runs ran under emulation: its {@code environment} names TCG. */
    public static boolean emulated(Map<String, String> env) {
        return env.getOrDefault("environment", "").toLowerCase(Locale.ROOT).contains("tcg");
    }

    /**
     * Whether the runs ran in a guest VM under KVM (env.txt's {@code environment} names kvm and not
     * TCG): virtualised, not emulated, so the figures are the kernel's at about native speed and the
     * probe does not scale them.
     */
    public boolean virtualised() {
        return virtualised(runs.env());
    }

    /** Whether {@code env} says its runs ran in a guest VM under KVM (and not TCG). */
    public static boolean virtualised(Map<String, String> env) {
        return !emulated(env) && env.getOrDefault("environment", "").toLowerCase(Locale.ROOT).contains("kvm");
    }

    /** Whether the runs ran in the guest VM (env.txt's {@code environment} starts with "guest"), under whichever accelerator. */
    public boolean guest() {
        return runs.env().getOrDefault("environment", "").toLowerCase(Locale.ROOT).startsWith("guest");
    }

    /**
     * The probe's factor where it may scale the runs' figures to the host's: under emulation, and
     * only where the probe ran on both sides; null otherwise (native, KVM, or no probe).
     */
    public Stats.Spread scale() {
        return emulated() ? factor() : null;
    }

    /**
     * How many times slower the guest's kernel ran the probe's I/O than the host's (task-clock per
     * I/O, guest over host, per round): null where the run has no probe on both sides.
     */
    public Stats.Spread factor() {
        return factor;
    }

    /** The probe in words, for the notebook and the calibration's source. */
    public static String text(Stats.Spread f) {
        return "the emulation probe (the same zram 4k randread, fio psync, 1 job, on the host and in the guest): the guest's"
                + " kernel took " + Fmt.spread(f, 1) + " times the host's task-clock per I/O";
    }

    /**
     * The paragraph for a run in the guest VM under KVM where the probe ran: the figures are not
     * scaled, and what the probe says of the guest's kernel against the host's.
     */
    public static String virtualisedNote(Stats.Spread f) {
        return "These runs ran in the guest VM under KVM (virtualised, not emulated: the guest's kernel code runs at the CPU's own"
                + " speed), so their ns are taken as they are, not scaled; the probe (the same zram 4k randread, fio psync, 1 job, on"
                + " the host and in the guest) took " + Fmt.spread(f, 2) + " times the host's task-clock per I/O in the guest.\n\n";
    }

    /** The paragraph for an emulated run: its ns are emulation speed, and which ratios within it are data. */
    public static String emulatedNote(String ratios) {
        return "These runs are emulated (qemu TCG: the host kernel has no device-mapper): every instruction costs many times its"
                + " native cost, so the ns columns are emulation speed; only ratios within the run (" + ratios + ") are data.\n\n";
    }

    /**
     * A calibration's kernel figure from the fio rows {@code pick} keeps (a finite task-clock per
     * I/O): their median task-clock per I/O, scaled by the probe where the runs were emulated (TCG;
     * natively and in a KVM guest as measured), and the median of their user shares (NaN: none);
     * null where no row fits. {@code what} says which runs they are from the environment
     * ({@code env.txt}'s, "native" without) and how many rounds.
     */
    public static Calibrations.KernelFigure estimateKernelFigure(KernelRuns k, Predicate<KernelRuns.Row> pick, BiFunction<String, Integer, String> what) {
        List<Double> ns = new ArrayList<>();
        List<Double> user = new ArrayList<>();
        for (KernelRuns.Row row : k.rows()) {
            if (row.tool().equals("fio") && Double.isFinite(row.taskClockNsPerIo()) && pick.test(row)) {
                ns.add(row.taskClockNsPerIo());
                if (Double.isFinite(row.userShare())) {
                    user.add(row.userShare());
                }
            }
        }
        double userShare = user.isEmpty() ? Double.NaN : Stats.median(user);
        if (ns.isEmpty()) {
            return null;
        }
        String source = what.apply(k.env().getOrDefault("environment", "native"), ns.size());
        EmulationProbe probe = of(k);
        Stats.Spread factor = probe.factor();
        lab.analysis.estimate.Estimate e = lab.analysis.estimate.Estimator.of(ns);
        if (probe.emulated() && factor != null) {
            // the interval: the rounds' own, each end divided by the probe's farther end (both uncertainties, conservatively)
            return new Calibrations.KernelFigure(Stats.median(ns) / factor.median(), source + " (" + Math.round(Stats.median(ns))
                    + " ns emulated), divided by " + text(factor), userShare, e.lo() / factor.max(), e.hi() / factor.min());
        }
        return new Calibrations.KernelFigure(Stats.median(ns), probe.emulated() ? source + "; emulated and no probe to scale it by:"
                + " an upper bound" : source, userShare, e.lo(), e.hi());
    }
}
