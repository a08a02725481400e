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
 * A kernel side that ran in the lab's guest VM under qemu TCG (the host kernel lacks a module the
 * scenario needs: device-mapper, dm-thin-pool), and the scenarios' emulation probe that scales it:
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

    private EmulationProbe(KernelRuns runs) {
        this.runs = runs;
        for (KernelRuns.Row row : runs.rows()) {
            if (isProbe(row)) {
                Matcher m = PROBE.matcher(row.job());
                m.matches();
                (m.group(1).equals("host") ? host : guest).put(Integer.parseInt(m.group(2)), row);
            }
        }
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
        return runs.env().getOrDefault("environment", "").toLowerCase(Locale.ROOT).contains("tcg");
    }

    /**
     * How many times slower the guest's kernel ran the probe's I/O than the host's (task-clock per
     * I/O, guest over host, per round): null where the run has no probe on both sides.
     */
    public Stats.Spread factor() {
        List<Double> f = new ArrayList<>();
        guest.forEach((r, g) -> {
            KernelRuns.Row h = host.get(r);
            if (h != null) {
                f.add(g.taskClockNsPerIo() / h.taskClockNsPerIo());
            }
        });
        return Parts.spread(f);
    }

    /** The probe in words, for the notebook and the calibration's source. */
    public static String text(Stats.Spread f) {
        return "the emulation probe (the same zram 4k randread, fio psync, 1 job, on the host and in the guest): the guest's"
                + " kernel took " + Fmt.spread(f, 1) + " times the host's task-clock per I/O";
    }

    /** The paragraph for an emulated run: its ns are emulation speed, and which ratios within it are data. */
    public static String emulatedNote(String ratios) {
        return "These runs are emulated (qemu TCG: the host kernel has no device-mapper): every instruction costs many times its"
                + " native cost, so the ns columns are emulation speed; only ratios within the run (" + ratios + ") are data.\n\n";
    }

    /**
     * A calibration's kernel figure from the fio rows {@code pick} keeps (a finite task-clock per
     * I/O): their median task-clock per I/O, scaled by the probe where the runs were emulated, and
     * the median of their user shares (NaN: none); null where no row fits. {@code what} says which
     * runs they are from the environment ({@code env.txt}'s, "native" without) and how many rounds.
     */
    public static Calibrations.KernelFigure figure(KernelRuns k, Predicate<KernelRuns.Row> pick, BiFunction<String, Integer, String> what) {
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
        if (probe.emulated() && factor != null) {
            return new Calibrations.KernelFigure(Stats.median(ns) / factor.median(), source + " (" + Math.round(Stats.median(ns))
                    + " ns emulated), divided by " + text(factor), userShare);
        }
        return new Calibrations.KernelFigure(Stats.median(ns), probe.emulated() ? source + "; emulated and no probe to scale it by:"
                + " an upper bound" : source, userShare);
    }
}
