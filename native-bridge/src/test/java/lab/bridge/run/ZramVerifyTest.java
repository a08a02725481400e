package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.assumeRoot;
import static lab.bridge.run.BridgeTesting.assumeUring;
import static lab.bridge.run.BridgeTesting.jobs;
import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import lab.bridge.engine.BridgeEngines;
import lab.bridge.ffi.Libc;
import lab.bridge.ffi.Stat;
import lab.bridge.ffi.TestZram;
import lab.jobspec.Job;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * As root: a zram device of the test's own ({@link TestZram}), io_uring and libaio randwrite then randread
 * with verify=crc32c, the registry rule, the ownership override and the O_EXCL hold on a real
 * block device.
 */
class ZramVerifyTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"io_uring", "libaio"})
    void verifyOnAFreshZramDevice(String engine) throws Exception {
        assumeRoot();
        if (engine.equals("io_uring")) {
            assumeUring();
        }
        try (TestZram z = TestZram.add("64M")) {
            int n = z.index;
            String dev = z.dev;
            assertTrue(n > 0, "hot_add gave zram" + n);
            String common = "[global]\nioengine=" + engine + "\niodepth=16\ndirect=1\nverify=crc32c\nbs=4k\nsize=32m\n";
            List<Job> write = jobs(dir, "w.fio", common + "[w]\nrw=randwrite\n");
            List<Job> read = jobs(dir, "r.fio", common + "[r]\nrw=randread\nnumjobs=2\n");

            DeviceOwnership refuse = (p, maj, min) -> Optional.of("the registry does not list it (test)");
            String m = assertThrows(BridgeSetupException.class,
                    () -> run(write, new BridgeRun.Options(dev, false, refuse, BridgeEngines::open))).getMessage();
            assertTrue(m.contains("--i-own-this-device") && m.contains("(test)"), m);

            BridgeTesting.Outcome w = run(write, new BridgeRun.Options(dev, true, refuse, BridgeEngines::open));
            FioJob wj = w.report().jobs().getFirst();
            assertEquals(0, wj.error(), w.notes());
            assertEquals(8192, wj.write().totalIos());
            assertEquals(64L << 20, wj.lab().targetSizeBytes());
            assertEquals(4096, wj.lab().logicalBlockSize(), "zram's logical block is a page");

            // the registry rule on the real device: the lab's only when its registry lists it
            Stat st = z.stat();
            Path registry = Files.writeString(dir.resolve("registry"), "zram\tzram" + n + "\t-\n");
            Path sys = Path.of("/sys/dev/block");
            Path nullb = Path.of("/sys/kernel/config/nullb");
            assertEquals(Optional.empty(), new RegistryOwnership(registry, sys, nullb).refusal(dev, st.major(), st.minor()));
            Files.writeString(registry, "zram\tzram" + (n + 1000) + "\t-\n");
            String no = new RegistryOwnership(registry, sys, nullb).refusal(dev, st.major(), st.minor()).orElseThrow();
            assertTrue(no.contains("no 'zram zram" + n + "' line"), no);

            // held by another exclusive opener: refused even with the override, nothing written
            byte[] before = firstBlock(dev);
            int holder = Libc.open(dev, Libc.O_RDONLY | Libc.O_EXCL | Libc.O_CLOEXEC);
            try {
                String busy = assertThrows(BridgeSetupException.class,
                        () -> run(write, new BridgeRun.Options(dev, true, refuse, BridgeEngines::open))).getMessage();
                assertTrue(busy.contains("holds it exclusively (open with O_EXCL: EBUSY)"), busy);
            } finally {
                Libc.close(holder);
            }
            assertArrayEquals(before, firstBlock(dev), "a refused run wrote nothing");

            BridgeTesting.Outcome r = run(read, BridgeRun.Options.of(dev, false));
            for (FioJob rj : r.report().jobs()) {
                assertEquals(0, rj.error(), r.notes());
                assertEquals(8192, rj.read().totalIos());
                assertEquals(0L, rj.lab().verifyMismatches(), r.notes());
                assertEquals(0L, rj.lab().verifyUnwritten(), r.notes());
            }
        }
    }

    private static byte[] firstBlock(String dev) throws IOException {
        try (var in = Files.newInputStream(Path.of(dev))) {
            return in.readNBytes(65536);
        }
    }
}
