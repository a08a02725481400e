package lab.fix.partacct;

import static lab.fix.partacct.PartAcct.*;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleBinaryOperator;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.analysis.Stats;
import lab.analysis.estimate.Estimate;
import lab.analysis.estimate.Estimator;
import lab.notebook.Fmt;
import lab.notebook.KernelRuns;
import lab.notebook.Parts;
import lab.results.RunDir;

/**
 * Today's kernel with {@code queue/iostats} 1 against 0 ({@code raw/part-acct/kernel/}, named as
 * {@link PartAcctRaw.KernelRun}): the runs grouped by device, target, numjobs and tool, per round
 * the iostats=1 and =0 rows; the on/off ratio and the accounting cost per I/O within a round.
 * zram and loop run natively; null_blk natively where env.txt's {@code environment} lists it among
 * the native devices ({@code native (zram, loop, nullb)}), else in the guest VM (its accelerator in
 * {@code guest_environment}: emulated only under TCG).
 */
record IostatsKernel(Map<IostatsKernel.Group, Map<Integer, KernelRuns.Row[]>> groups, Map<String, String> env,
                     Map<IostatsKernel.Group, IostatsKernel.Figures> figures) {
    /**
     * A group's figures, made once when the side is read: IOPS and task-clock per I/O at iostats=1
     * and =0 (geometric means over rounds), on over off IOPS within each round (its geometric mean),
     * on minus off task-clock per I/O within each round (its mean), and to the partition over to the
     * whole disk at iostats=1 and =0 (null where the run has no partition rows).
     */
    record Figures(Estimate iops1, Estimate iops0, Estimate ns1, Estimate ns0, Estimate ratio, Estimate cost, Estimate part1, Estimate part0) {}

    /** One device, target, numjobs and tool: the iostats=1 and =0 rows of each round. */
    record Group(String dev, String target, int jobs, String tool) {
        static final Comparator<Group> ORDER = Comparator.comparingInt((Group g) -> DEVICES.contains(g.dev()) ? DEVICES.indexOf(g.dev()) : DEVICES.size())
                .thenComparing(Group::dev).thenComparingInt(g -> TARGETS.indexOf(g.target())).thenComparingInt(Group::jobs)
                .thenComparing(g -> g.tool().equals("fio") ? "" : g.tool());

        String name() {
            return dev + "/" + target + "/j" + jobs + "/" + tool;
        }
    }

    static IostatsKernel of(KernelRuns k) {
        Map<Group, Map<Integer, KernelRuns.Row[]>> g = new TreeMap<>(Group.ORDER);
        for (KernelRuns.Row r : k.rows()) {
            PartAcctRaw.KernelRun run = PartAcctRaw.KernelRun.parse(r.job());
            if (run == null) {
                continue;
            }
            Group key = new Group(run.dev(), run.target(), run.jobs(), r.tool());
            g.computeIfAbsent(key, x -> new TreeMap<>()).computeIfAbsent(run.round(), x -> new KernelRuns.Row[2])[run.iostats()] = r;
        }
        Map<Group, Figures> f = new TreeMap<>(Group.ORDER);
        g.forEach((key, rounds) -> f.put(key, estimate(g, key, rounds)));
        return new IostatsKernel(g, k.env(), f);
    }

    private static Figures estimate(Map<Group, Map<Integer, KernelRuns.Row[]>> g, Group key, Map<Integer, KernelRuns.Row[]> rounds) {
        java.util.function.BiFunction<Integer, ToDoubleFunction<KernelRuns.Row>, Estimate> each = (s, f) -> Estimator.of(rounds.values().stream()
                .filter(r -> r[s] != null).map(r -> f.applyAsDouble(r[s])).filter(x -> x > 0 && Double.isFinite(x)).toList());
        List<Double> ratio = new ArrayList<>();
        List<Double> cost = new ArrayList<>();
        rounds.values().forEach(r -> {
            if (r[0] != null && r[1] != null) {
                if (r[1].iops() > 0 && r[0].iops() > 0) {
                    ratio.add(r[1].iops() / r[0].iops());
                }
                if (Double.isFinite(r[1].taskClockNsPerIo()) && Double.isFinite(r[0].taskClockNsPerIo())) {
                    cost.add(r[1].taskClockNsPerIo() - r[0].taskClockNsPerIo());
                }
            }
        });
        Estimate[] part = new Estimate[2];
        Map<Integer, KernelRuns.Row[]> disk = g.get(new Group(key.dev(), "disk", key.jobs(), key.tool()));
        if (key.target().equals("part") && disk != null) {
            for (int s : new int[] {1, 0}) {
                List<Double> r = new ArrayList<>();
                rounds.forEach((round, rows) -> {
                    KernelRuns.Row[] d = disk.get(round);
                    if (rows[s] != null && d != null && d[s] != null && rows[s].iops() > 0 && d[s].iops() > 0) {
                        r.add(rows[s].iops() / d[s].iops());
                    }
                });
                part[s] = Estimator.of(r);
            }
        }
        return new Figures(each.apply(1, KernelRuns.Row::iops), each.apply(0, KernelRuns.Row::iops), each.apply(1, KernelRuns.Row::taskClockNsPerIo),
                each.apply(0, KernelRuns.Row::taskClockNsPerIo), Estimator.of(ratio), Estimator.mean(cost), part[1], part[0]);
    }

    boolean isEmpty() {
        return groups.isEmpty();
    }

    /** env.txt's "native (zram, loop, nullb)" (the devices that ran natively; "; guest VM (nullb)" may follow). */
    private static final Pattern NATIVE = Pattern.compile("^native \\(([^)]*)\\)");

    /**
     * The devices env.txt's {@code environment} lists as native, in its order ({@code native (zram,
     * loop, nullb)}; {@code native (none)}: none); null where it lists none (a bare {@code native},
     * or no environment line).
     */
    static List<String> nativeDevices(Map<String, String> env) {
        Matcher m = NATIVE.matcher(env.getOrDefault("environment", ""));
        if (!m.find()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String d : m.group(1).split(",")) {
            if (!d.isBlank() && !d.trim().equals("none")) {
                out.add(d.trim());
            }
        }
        return out;
    }

    /** Where null_blk ran: natively, or in the guest VM. */
    enum Where { NATIVE, TCG, KVM, GUEST }

    /**
     * Where {@code env} says null_blk ran: natively where its {@code environment} lists nullb among
     * the native devices; else in the guest VM, under TCG or KVM as {@code guest_environment} starts
     * (TCG where it does not say, as every run before the guest could use KVM).
     */
    static Where nullbWhere(Map<String, String> env) {
        List<String> n = nativeDevices(env);
        if (n != null && n.contains("nullb")) {
            return Where.NATIVE;
        }
        String accel = env.getOrDefault("guest_environment", "tcg");
        return accel.startsWith("kvm") ? Where.KVM : accel.startsWith("tcg") ? Where.TCG : Where.GUEST;
    }

    /** Whether null_blk ran natively (env.txt). */
    boolean nullbNative() {
        return nullbWhere(env) == Where.NATIVE;
    }

    /** task-clock ns per I/O of the iostats=S rows: the geometric mean over rounds with its interval. */
    Estimate nsPerIo(Group g, int iostats) {
        return iostats == 1 ? figures.get(g).ns1() : figures.get(g).ns0();
    }

    /** IOPS of the iostats=S rows, estimated over rounds. */
    Estimate iops(Group g, int iostats) {
        return iostats == 1 ? figures.get(g).iops1() : figures.get(g).iops0();
    }

    /** IOPS with iostats=1 over IOPS with iostats=0 within each round, estimated over rounds; null where no round has both. */
    Estimate ratio(Group g) {
        return figures.get(g).ratio();
    }

    /** task-clock ns per I/O with iostats=1 minus with iostats=0, per round, the mean: the measured accounting cost per I/O. */
    Estimate cost(Group g) {
        return figures.get(g).cost();
    }

    /** Whether some iostats=0 run of {@code g} still moved the target's /sys stat: the toggle did not take there. */
    boolean ignoresToggle(Group g) {
        return groups.get(g).values().stream().anyMatch(x -> x[0] != null && x[0].iosFromStat());
    }

    /**
     * The whole disk through fio at the highest numjobs with both iostats settings, on the first device of
     * {@link #HEADLINE_ORDER} where the toggle takes; null when it takes nowhere.
     */
    Group headlineGroup() {
        for (String dev : HEADLINE_ORDER) {
            Group best = null;
            for (Group g : groups.keySet()) {
                if (g.dev().equals(dev) && g.target().equals("disk") && g.tool().equals("fio") && ratio(g) != null) {
                    best = g;
                }
            }
            if (best != null && !ignoresToggle(best)) {
                return best;
            }
        }
        return null;
    }

    /** Why the headline is not null_blk's whole disk, or "" when it is. */
    String headlineNote() {
        Group h = headlineGroup();
        if (h != null && h.dev().equals("nullb")) {
            return "";
        }
        List<String> why = new ArrayList<>();
        if (groups.keySet().stream().noneMatch(g -> g.dev().equals("nullb") && g.target().equals("disk") && g.tool().equals("fio"))) {
            String guest = env.getOrDefault("guest", "");
            why.add(nullbNative() ? "no null_blk run" : guest.startsWith("skipped: not asked: ")
                    ? "no null_blk run: " + guest.substring("skipped: not asked: ".length()) : "no null_blk run: the guest did not run");
        }
        List<String> ignored = groups.keySet().stream().filter(g -> g.target().equals("disk") && g.tool().equals("fio")
                && ignoresToggle(g)).map(Group::dev).distinct().toList();
        if (!ignored.isEmpty()) {
            why.add(String.join(", ", ignored) + " ignored the toggle: its /sys stat still counted with iostats=0");
        }
        return why.isEmpty() ? "" : " (" + String.join("; ", why) + ")";
    }

    String label(String dev) {
        if (dev.equals("nullb") && nullbNative()) {
            return "null_blk (native)";
        }
        if (dev.equals("nullb")) {
            String accel = env.getOrDefault("guest_environment", "tcg");
            return "null_blk (guest VM, " + (accel.startsWith("kvm") ? "qemu KVM" : accel.startsWith("tcg") ? "emulated: qemu TCG" : "qemu")
                    + ", kernel " + env.getOrDefault("guest_kernel", "?") + ")";
        }
        return dev + " (native)";
    }

    String text(RunDir run, Path dir, KernelRuns k) throws IOException {
        StringBuilder b = new StringBuilder("### Today's kernel: `queue/iostats` 1 against 0\n\n");
        if (isEmpty()) {
            String step = KernelRuns.stepStatus(run, ID, "kernel");
            return b.append("Not in this run: ").append(step != null ? step : "the kernel side runs as root (`sudo ./lab pair part-acct`)")
                    .append(env.containsKey("guest") ? "; guest: " + env.get("guest") : "").append(".\n\n").toString();
        }
        b.append("Today's kernel already has every patch and the lazy `update_io_ticks`, so it cannot switch the series off; what it "
                + "can switch is accounting itself, through `/sys/block/*/queue/iostats`. The same 4k randread, ").append(where())
                .append("; I/O to partition 1 and to the whole disk; host kernel ")
                .append(env.getOrDefault("kernel", "?")).append(env.containsKey("modules") ? " (modules: " + env.get("modules") + ")" : "")
                .append(", ").append(env.getOrDefault("cores", "?")).append(" cores, ")
                .append(env.getOrDefault("rounds", "?")).append(" round(s), `perf stat -r ").append(env.getOrDefault("perf_repeats", "1"))
                .append("` per run. Each figure the geometric mean over rounds with its 95% interval (the cost, a difference: the mean); the on/off ratio and the cost are taken within a round. "
                        + "kIOPS: thousands of I/O per second; task-clock counts the whole command.")
                .append(env.containsKey("span") ? " Span read: " + env.get("span") + "." : "").append("\n\n")
                .append("| device | target | jobs | tool | kIOPS iostats=1 | kIOPS iostats=0 | on / off | task-clock ns/I/O on | off | on − off |\n")
                .append("|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
        List<String> stillCounted = new ArrayList<>();
        for (Group g : groups.keySet()) {
            Estimate r = ratio(g);
            b.append("| ").append(label(g.dev())).append(" | ").append(g.target()).append(" | ").append(g.jobs()).append(" | ")
                    .append(g.tool()).append(" | ").append(Fmt.est(kiops(iops(g, 1)), 1)).append(" | ")
                    .append(Fmt.est(kiops(iops(g, 0)), 1)).append(" | ")
                    .append(r == null ? "n/a" : r.format(3) + "x").append(" | ")
                    .append(Fmt.est(nsPerIo(g, 1), 0)).append(" | ")
                    .append(Fmt.est(nsPerIo(g, 0), 0)).append(" | ")
                    .append(Fmt.est(cost(g), 0)).append(" |\n");
            if (ignoresToggle(g)) {
                stillCounted.add(g.name());
            }
        }
        b.append("\nWith iostats=0 the kernel stops counting I/O in `/sys/block/*/stat`, so those rows' per-I/O figures divide by "
                + "fio's own I/O count.");
        if (!stillCounted.isEmpty()) {
            b.append(" **The stat still moved with iostats=0** for ").append(String.join(", ", stillCounted))
                    .append(": there the toggle did not switch accounting off (the device's own stat kept counting), so "
                            + "those on/off ratios are run-to-run differences, not the accounting cost, and the headline does not use them.");
        }
        b.append("\n\n").append(partVsDisk()).append(absent()).append(KernelRuns.quickNote(env, ID));
        if (!k.missingCounters().isEmpty()) {
            b.append("Counters this machine could not count (absent, never counted as 0): ")
                    .append(String.join(", ", k.missingCounters())).append(".\n\n");
        }
        return b.append(KernelRuns.flamegraphs(run, dir)).toString();
    }

    /**
     * Where the devices ran, from env.txt's {@code environment}: "natively on zram and loop, and on
     * null_blk in a guest VM" where it lists no native devices (older runs), else the native ones it
     * lists, and null_blk in the guest VM where it names one.
     */
    private String where() {
        List<String> natives = nativeDevices(env);
        boolean guest;
        if (natives == null) {
            natives = List.of("zram", "loop");
            guest = true;
        } else {
            guest = !natives.contains("nullb") && env.getOrDefault("environment", "").contains("guest VM");
        }
        List<String> names = natives.stream().map(d -> d.equals("nullb") ? "null_blk" : d).toList();
        List<String> parts = new ArrayList<>();
        if (!names.isEmpty()) {
            parts.add("natively on " + (names.size() == 1 ? names.getFirst()
                    : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.getLast()));
        }
        if (guest) {
            parts.add("on null_blk in a guest VM");
        }
        return parts.isEmpty() ? "on no device env.txt names" : String.join(", and ", parts);
    }

    private static Estimate kiops(Estimate s) {
        return s == null ? null : s.times(1e-3);
    }

    /** Partition over whole disk IOPS, per round, at iostats 1 and 0, for every device, numjobs and tool that has both. */
    String partVsDisk() {
        StringBuilder b = new StringBuilder();
        for (Group disk : groups.keySet()) {
            if (!disk.target().equals("disk")) {
                continue;
            }
            Group part = new Group(disk.dev(), "part", disk.jobs(), disk.tool());
            if (!groups.containsKey(part)) {
                continue;
            }
            if (b.isEmpty()) {
                b.append("Partition against whole disk (kIOPS to partition 1 over kIOPS to the whole disk, within a round; a "
                        + "partition bio is accounted twice, to the partition and to part0):\n\n"
                        + "| device | jobs | tool | part / disk, iostats=1 | part / disk, iostats=0 |\n|---|---:|---|---:|---:|\n");
            }
            b.append("| ").append(label(disk.dev())).append(" | ").append(disk.jobs()).append(" | ").append(disk.tool());
            for (Estimate r : new Estimate[] {figures.get(part).part1(), figures.get(part).part0()}) {
                b.append(" | ").append(r == null ? "n/a" : r.format(3) + "x");
            }
            b.append(" |\n");
        }
        return b.isEmpty() ? "No device has both partition and whole-disk rows in this run.\n\n" : b.append('\n').toString();
    }

    /** The device and target combinations the scenario runs that this run lacks, with the reason where env.txt gives one. */
    String absent() {
        List<String> gone = new ArrayList<>();
        for (String dev : DEVICES) {
            for (String target : TARGETS) {
                if (groups.keySet().stream().noneMatch(g -> g.dev().equals(dev) && g.target().equals(target))) {
                    gone.add(dev + " " + target + absentBecause(dev, target));
                }
            }
        }
        return gone.isEmpty() ? "" : "Not in this run: " + String.join("; ", gone)
                + " (see `raw/part-acct/kernel/scenario.log`).\n\n";
    }

    private String absentBecause(String dev, String target) {
        String cells = env.get("cells");
        if (cells != null && !(dev.equals("zram") && target.equals("part"))
                && !(" " + cells + " ").matches(".* " + dev + "-" + target + "-j[0-9a-z]+ .*")) {
            return " (not among the cells this run ran: " + cells.replaceFirst(" \\(.*", "") + ")";
        }
        if (dev.equals("nullb") && nullbNative()) {
            return target.equals("part") && env.containsKey("nullb_part") ? " (partition: " + env.get("nullb_part") + ")" : "";
        }
        String guest = env.getOrDefault("guest", "");
        if (dev.equals("nullb") && !guest.isEmpty() && !guest.startsWith("ran")) {
            return " (guest " + guest + ")";
        }
        if (dev.equals("nullb") && target.equals("part") && env.containsKey("guest_part")) {
            return " (partition: " + env.get("guest_part") + ")";
        }
        if (dev.equals("zram") && target.equals("part")) {
            return " (zram takes no partition table: the scenario reads its whole disk only)";
        }
        return "";
    }

    Map<String, Object> summary(KernelRuns k) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kernel", env.get("kernel"));
        out.put("cores", env.get("cores"));
        out.put("guest", env.containsKey("guest_kernel") ? env.get("guest_kernel") : env.get("guest"));
        out.put("counters_absent", k.missingCounters());
        Map<String, Object> gs = new LinkedHashMap<>();
        for (Group g : groups.keySet()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("iops_iostats1", Parts.json(iops(g, 1)));
            m.put("iops_iostats0", Parts.json(iops(g, 0)));
            m.put("on_over_off", Parts.json(ratio(g)));
            m.put("task_clock_ns_per_io_iostats1", Parts.json(nsPerIo(g, 1)));
            m.put("task_clock_ns_per_io_iostats0", Parts.json(nsPerIo(g, 0)));
            m.put("accounting_ns_per_io", Parts.json(cost(g)));
            gs.put(g.name(), m);
        }
        out.put("groups", gs);
        return out;
    }
}
