package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lab kernel against Debian's: three rounds, each boot's two repetitions up to 1% apart either
 * way (the A/A), the lab kernel 0.5% slower give or take 1% from round to round, and then 10% slower.
 */
class LabKernelOverheadTest {
    @TempDir
    Path run;

    private RunDir write(double lab) throws Exception {
        Path dir = Files.createDirectories(run.resolve("raw/lab-kernel"));
        StringBuilder b = new StringBuilder("round\tslot\tkernel\trep\tios\truntime_s\tiops\ttask_clock_ns\tns_per_io\n");
        for (int r = 1; r <= 3; r++) {
            for (String k : r % 2 == 1 ? List.of("debian", "lab") : List.of("lab", "debian")) {
                double jitter = k.equals("lab") ? new double[] {1.01, 0.99, 1.0}[r - 1] : 1.0;
                double base = (k.equals("lab") ? lab * jitter : 1.0) * (100_000 + 1000 * r);
                for (int rep = 1; rep <= 2; rep++) {
                    double iops = base * (rep == 1 ? 1 : new double[] {1.01, 0.99, 1.0}[r - 1]);
                    b.append(r).append('\t').append(k.equals("debian") == (r % 2 == 1) ? 1 : 2).append('\t').append(k).append('\t')
                            .append(rep).append("\t500000\t5\t").append(iops).append('\t').append(1e9 * 5).append('\t')
                            .append(k.equals("lab") ? 5100 : 5000).append('\n');
                }
            }
        }
        Files.writeString(dir.resolve("overhead.tsv"), b);
        Files.writeString(run.resolve("manifest.json"), "{}");
        Files.writeString(dir.resolve("overhead.txt"), "workload: fio randread 4k on brd, 10 s\nenv: tcg\nrounds: 3\n"
                + "debian_kernel: 6.1.0-28-amd64\nlab_kernel: 6.1.0-lab+\n");
        return RunDir.open(run);
    }

    @Test
    void absentWithoutItsFile() throws Exception {
        Files.createDirectories(run.resolve("raw"));
        assertTrue(LabKernelOverhead.read(RunDir.open(run)).isEmpty());
    }

    @Test
    void aRatioWhoseIntervalLiesWithinFivePercentIsNoOverhead() throws Exception {
        LabKernelOverhead o = LabKernelOverhead.read(write(0.995)).orElseThrow();
        String md = o.text("./lab demo");
        assertTrue(md.startsWith("## The lab kernel's overhead\n\nDebian's kernel (`6.1.0-28-amd64`) against the lab kernel"
                + " (`6.1.0-lab+`, every switch at its default), fio randread 4k on brd, 10 s, tcg, 3 rounds"), md);
        assertTrue(md.contains("| 3 | 103000 | 102485 | 0.995x |"), md);
        assertTrue(md.contains("lab / debian: 0.995 [0.971–1.020]x;"), md);
        assertTrue(md.contains("the A/A (the second repetition over the first in one boot, both kernels): 1.000 [0.991–1.009]x."), md);
        assertTrue(md.contains(" ns. Its interval lies within ±5%: no overhead larger than that.\n\n"), md);
        assertTrue(md.contains("debian 5000 [5000–5000] ns, lab 5100 [5100–5100] ns"), md);
        Map<String, Object> s = o.summary();
        assertEquals(0.995, (Double) ((Map<?, ?>) s.get("ratio")).get("value"), 5e-4);
        assertEquals("no effect larger than ±5%", s.get("verdict"));
        assertEquals(3, s.get("rounds"));
    }

    @Test
    void aRatioWhoseIntervalLeavesOutOneIsAnOverhead() throws Exception {
        String md = LabKernelOverhead.read(write(0.9)).orElseThrow().text("x");
        assertTrue(md.contains("lab / debian: 0.900 [0.878–0.923]x;"), md);
        assertTrue(md.contains("Its interval leaves out 1: the lab kernel did 10.0% fewer IOPS"), md);
    }

    @Test
    void aForeignKernelNameIsAGap() throws Exception {
        RunDir r = write(1.0);
        Path f = run.resolve("raw/lab-kernel/overhead.tsv");
        Files.writeString(f, Files.readString(f).replaceFirst("\tlab\t", "\tfreebsd\t"));
        assertTrue(LabKernelOverhead.read(r).isEmpty());
        assertTrue(r.gaps().getFirst().startsWith("`raw/lab-kernel/overhead.tsv`: line "), r.gaps().toString());
    }
}
