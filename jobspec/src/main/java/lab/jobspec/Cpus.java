package lab.jobspec;

import java.io.File;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * fio's {@code cpus_allowed} / {@code cpumask} and {@code cpus_allowed_policy} of one job: the
 * CPUs its clones may run on. The bridge pins each clone's thread with {@code sched_setaffinity}
 * before it sets up its engine; the JVM model cannot pin and says so.
 *
 * <ul>
 * <li>{@code cpus_allowed=1,5,8-11}: CPUs and inclusive ranges, comma separated. fio reads the
 *     numbers with {@code atoi} and skips an empty or reversed range silently; the lab refuses
 *     anything but {@code N} and {@code N-M} with {@code N <= M}.</li>
 * <li>{@code cpumask=N}: bit i set means CPU i; decimal or {@code 0x} hex; fio reads only the
 *     low 32 bits, and so does the lab (a higher bit is refused, not dropped).</li>
 * <li>The one of the two written last wins (fio's callbacks both set the job's one mask). A CPU
 *     at or above the machine's configured count is refused at parse time, as fio does ("CPU N
 *     too large"), so a job file that names CPU 5 does not parse on a 4-CPU machine.</li>
 * <li>{@code cpus_allowed_policy=shared} (default): every clone may run on every allowed CPU;
 *     {@code split}: the clone with run-wide number {@code n} (0, 1, ... over all jobs' clones in
 *     file order, fio's {@code thread_number - 1}) gets only the {@code (n mod count)}-th allowed
 *     CPU ({@code fio_cpus_split}). Without a CPU set the policy does nothing, as in fio.</li>
 * </ul>
 *
 * @param allowed the allowed CPUs, ascending; empty when the job sets none (run anywhere)
 * @param split   {@code cpus_allowed_policy=split}
 */
public record Cpus(List<Integer> allowed, boolean split) {
    /** fio's default: no CPU set. */
    public static final Cpus ANY = new Cpus(List.of(), false);

    private static final Pattern PART = Pattern.compile("(\\d{1,9})(?:-(\\d{1,9}))?");

    public Cpus {
        allowed = List.copyOf(allowed);
    }

    /** Whether the job names CPUs. */
    public boolean pinned() {
        return !allowed.isEmpty();
    }

    /**
     * The CPUs the clone with run-wide number {@code threadNumber} (0-based, over every clone of
     * the run in start order) may run on; empty when the job names none.
     */
    public BitSet forClone(int threadNumber) {
        BitSet set = new BitSet();
        if (allowed.isEmpty()) {
            return set;
        }
        if (split) {
            set.set(allowed.get(threadNumber % allowed.size()));
        } else {
            allowed.forEach(set::set);
        }
        return set;
    }

    /** The allowed CPUs as fio lists them for {@code cpus_allowed}: {@code 0,2-3}. */
    public String format() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < allowed.size(); i++) {
            int from = allowed.get(i);
            int to = from;
            while (i + 1 < allowed.size() && allowed.get(i + 1) == to + 1) {
                to = allowed.get(++i);
            }
            b.append(b.isEmpty() ? "" : ",").append(from).append(from == to ? "" : "-" + to);
        }
        return b.toString();
    }

    /** {@code cpus_allowed}'s list; {@link IllegalArgumentException} says what is wrong. */
    static List<Integer> parseList(String text, int configured) {
        TreeSet<Integer> cpus = new TreeSet<>();
        for (String part : text.split(",", -1)) {
            var m = PART.matcher(part.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + part.strip() + "' is not a CPU (N) or a range (N-M)");
            }
            int from = Integer.parseInt(m.group(1));
            int to = m.group(2) == null ? from : Integer.parseInt(m.group(2));
            if (to < from) {
                throw new IllegalArgumentException("range '" + part.strip() + "' is reversed (fio would set no CPU)");
            }
            checkCpu(to, configured);
            for (int c = from; c <= to; c++) {
                cpus.add(c);
            }
        }
        return new ArrayList<>(cpus);
    }

    /** {@code cpumask}'s bits; {@link IllegalArgumentException} says what is wrong. */
    static List<Integer> parseMask(String text, int configured) {
        long mask = FioUnits.unsigned64(text);
        if ((mask >>> 32) != 0) {
            throw new IllegalArgumentException("'" + text + "' sets a bit above 31; fio reads only CPUs 0-31"
                    + " from cpumask: use cpus_allowed");
        }
        if (mask == 0) {
            throw new IllegalArgumentException("'" + text + "' allows no CPU");
        }
        List<Integer> cpus = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            if ((mask & (1L << i)) != 0) {
                checkCpu(i, configured);
                cpus.add(i);
            }
        }
        return cpus;
    }

    private static void checkCpu(int cpu, int configured) {
        if (cpu >= configured) {
            throw new IllegalArgumentException("CPU " + cpu + " too large (max=" + (configured - 1)
                    + ", fio's check: this machine has " + configured + " CPUs configured)");
        }
    }

    /** fio's {@code cpus_configured()}: the CPUs the kernel has, online or not ({@code /sys/devices/system/cpu/cpuN}). */
    static int configured() {
        String[] names = new File("/sys/devices/system/cpu").list((d, n) -> n.matches("cpu\\d+"));
        return names == null || names.length == 0 ? Runtime.getRuntime().availableProcessors() : names.length;
    }
}
