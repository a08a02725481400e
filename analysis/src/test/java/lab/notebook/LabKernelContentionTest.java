package lab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import lab.analysis.parse.LabAb;
import lab.results.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel's contention from the traced trials: three rounds at N = 1 and 16, before and after,
 * 10000 I/Os a traced trial. The before's lock (zram_submit_bio) is contended 10r times at N = 1
 * and 1500 + 10r times at N = 16 in round r, with 1 µs of wait each; another caller 5 times a
 * trial; the after's table is empty. So at N = 1 the before has 0.001r contentions and r ns of
 * wait per I/O (means 0.002 and 2 ns over rounds), at 16 0.15 + 0.001r and 150 + r ns; from 1 to
 * 16 the switch adds 15 operations per I/O, and every round adds 0.15 contentions and 150 ns of
 * wait per I/O: 0.01 contentions and 10 ns per added operation, 1000 ns per added contention, with
 * no spread. The traced trials ran 1.25 s for the timed trials' 10000 IOPS: traced / timed 0.8.
 */
class LabKernelContentionTest {
    @TempDir
    Path run;

    /** A perf lock contention table as perf 6.1 prints it: {@code caller:contended:wait-us} rows. */
    private static String table(String... rows) {
        StringBuilder b = new StringBuilder(" contended   total wait     max wait     avg wait         type   caller\n\n");
        for (String r : rows) {
            String[] f = r.split(":");
            long n = Long.parseLong(f[1]);
            double us = Double.parseDouble(f[2]);
            b.append(String.format(Locale.ROOT, "%10d %9.2f us %9.2f us %9.2f us   %10s   %s\n", n, us, us / n, us / n, "rwsem:R", f[0]));
        }
        return b.toString();
    }

    private Path write() throws Exception {
        Path dir = Files.createDirectories(run.resolve("raw/zram-init-lock/lab-kernel/lock"));
        Files.writeString(run.resolve("manifest.json"), "{}");
        Files.writeString(dir.getParent().resolve("lab-ab.txt"), "fix: zram-init-lock\nlock: rwsem:R zram_submit_bio\n"
                + "traced: perf lock record, perf version 6.1.192, 1s a trial, counts 1 16\n");
        StringBuilder ab = new StringBuilder("count\tround\tslot\tvariant\tvalue\tjobs\tios\truntime_s\tmetric\ttask_clock_ns\tns_per_io\tops_delta\textra\tboot\n");
        StringBuilder lock = new StringBuilder("count\tround\tvariant\tvalue\tboot\tios\truntime_s\tops_delta\ttable\n");
        for (int r = 1; r <= 3; r++) {
            for (int n : new int[] {1, 16}) {
                for (String v : new String[] {"before", "after"}) {
                    ab.append(n).append('\t').append(r).append("\t1\t").append(v).append("\tx\t2\t20000\t2.0\t10000\t1e9\t50000\t")
                            .append(20000 * n).append("\t-\t1\n");
                    String name = "N" + n + "-r" + r + "-t-" + v + ".lock.txt";
                    lock.append(n).append('\t').append(r).append('\t').append(v).append("\tx\t1\t10000\t1.25\t").append(10000 * n)
                            .append("\tlock/").append(name).append('\n');
                    int c = (n == 1 ? 0 : 1500) + 10 * r;
                    Files.writeString(dir.resolve(name), v.equals("before")
                            ? table("zram_submit_bio+0x7a:" + c + ":" + c, "kernfs_iop_permission+0x38:5:5") : table());
                }
            }
        }
        Files.writeString(dir.getParent().resolve("lab-ab.tsv"), ab);
        Files.writeString(dir.getParent().resolve("lab-lock.tsv"), lock);
        return dir.getParent();
    }

    private LabKernelContention read(Path dir) throws Exception {
        RunDir r = RunDir.open(run);
        return LabKernelContention.read(r, dir, LabAb.read(dir).orElseThrow()).orElseThrow(() -> new AssertionError(r.gaps()));
    }

    @Test
    void perCountAndVariantOverRounds() throws Exception {
        LabKernelContention c = read(write());
        assertEquals("rwsem:R", c.type());
        assertEquals(4, c.cells().size());
        LabKernelContention.Cell b1 = c.cells().stream().filter(x -> x.count() == 1 && x.variant().equals("before")).findFirst().orElseThrow();
        assertEquals(0.002, b1.contendedPerIo().value(), 1e-12);
        assertEquals(2.0, b1.waitNsPerIo().value(), 1e-9);
        assertEquals(1000.0, b1.waitPerContentionNs().value(), 1e-9);
        assertEquals(0.0005, b1.otherContendedPerIo().value(), 1e-12);
        assertEquals(1.0, b1.opsPerIo().value(), 1e-12);
        assertEquals(0.8, b1.tracedOverTimed().value(), 1e-12);
        // the mean's interval: 0.001, 0.002, 0.003: sd 0.001, h = t(2 df) × 0.001 / √3
        assertEquals(0.002 - lab.analysis.estimate.Estimator.t975(2) * 0.001 / Math.sqrt(3), b1.contendedPerIo().lo(), 1e-12);
        LabKernelContention.Cell a16 = c.cells().stream().filter(x -> x.count() == 16 && x.variant().equals("after")).findFirst().orElseThrow();
        assertEquals(0.0, a16.contendedPerIo().value(), 0);
        assertNull(a16.waitPerContentionNs());
    }

    @Test
    void thePricePerAddedAcquisitionSplitsIntoFrequencyAndWait() throws Exception {
        LabKernelContention c = read(write());
        LabKernelContention.Added a = c.addedBefore();
        assertEquals(1, a.from());
        assertEquals(16, a.to());
        assertEquals(0.01, a.frequency().value(), 1e-12);
        assertEquals(0.01, a.frequency().hi(), 1e-12);
        assertEquals(10.0, a.waitPerOpNs().value(), 1e-9);
        assertEquals(1000.0, a.waitPerContentionNs().value(), 1e-6);
        // pooled at N = 16: 3 × 160000 acquisitions, 1510 + 1520 + 1530 contended
        assertEquals(480000, a.acquisitions());
        assertEquals(4560, a.contentions());
        assertTrue(Double.isNaN(a.noneBound()));
        LabKernelContention.Added after = c.added().stream().filter(x -> x.variant().equals("after")).findFirst().orElseThrow();
        assertEquals(0.0, after.frequency().value(), 0);
        assertNull(after.waitPerContentionNs());
        // the after's 480000 acquisitions at N = 16 none contended: under 3 in 480000 (the rule of three)
        assertEquals(0, after.contentions());
        assertEquals(3.0 / 480000, after.noneBound(), 1e-15);
    }

    @Test
    void withoutALockLineTheTracedTrialsAreAGap() throws Exception {
        Path dir = write();
        Files.writeString(dir.resolve("lab-ab.txt"), "fix: zram-init-lock\n");
        RunDir r = RunDir.open(run);
        assertTrue(LabKernelContention.read(r, dir, LabAb.read(dir).orElseThrow()).isEmpty());
        assertTrue(r.gaps().toString().contains("no lock line"), r.gaps().toString());
    }
}
