package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.analysis.fidelity.SwitchSweep;
import lab.analysis.parse.LabAb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Param;

/**
 * The model each switched fix sets against its lab-kernel switch ({@link GuestModel}): its
 * benchmark has the parameters it sets, the variants it names are among the variant parameter's
 * values, the worker's share is asked for exactly where the benchmark has it; and G, the base it
 * runs at, is the A/B's after at N = 1.
 */
class GuestModelTest {
    @TempDir
    Path tmp;

    /** The {@code @Param} fields of the benchmark class an include pattern names, with their listed values. */
    static Map<String, List<String>> params(String include) throws Exception {
        Matcher m = Pattern.compile("bench\\\\\\.(\\w+)").matcher(include);
        assertTrue(m.find(), include);
        Class<?> bench = Class.forName("lab.engine.bench." + m.group(1));
        List<Class<?>> classes = new ArrayList<>(List.of(bench));
        classes.addAll(List.of(bench.getDeclaredClasses()));
        Map<String, List<String>> out = new HashMap<>();
        for (Class<?> c : classes) {
            for (Field f : c.getDeclaredFields()) {
                Param p = f.getAnnotation(Param.class);
                if (p != null) {
                    out.put(f.getName(), List.of(p.value()));
                }
            }
        }
        return out;
    }

    @Test
    void everySwitchedFixsModelNamesItsBenchmarksParametersAndVariants() throws Exception {
        for (String id : List.of("dm-css-ref", "zram-init-lock", "part-acct", "thin-bufio-lock")) {
            GuestModel g = Fixes.byId(id).orElseThrow().pairing().guestModel();
            assertNotNull(g, id);
            Map<String, List<String>> p = params(g.benchmark());
            assertTrue(p.containsKey(g.param()), id + ": " + p.keySet());
            assertTrue(p.get(g.param()).contains(g.before()), id + ": " + g.before() + " not in " + p.get(g.param()));
            assertTrue(p.get(g.param()).contains(g.after()), id + ": " + g.after() + " not in " + p.get(g.param()));
            assertFalse(g.before().equals(g.after()), id);
            for (String k : g.fixed().keySet()) {
                assertTrue(p.containsKey(k), id + ": no @Param " + k + " in " + p.keySet());
            }
            assertTrue(p.containsKey("baseNs"), id);
            assertEquals(g.userSplit(), p.containsKey("userNs"), id + ": userSplit must say whether the benchmark has userNs");
            assertEquals(g.after() + "~aa", g.control());
        }
        assertNull(Fixes.byId("dm-blkcg-clone").orElseThrow().pairing().guestModel(), "a share's fix has no model at the guest's base");
    }

    @Test
    void theBaseIsTheAbsAfterAtNEqualsOneAndOnlyARunWithTheAbHasOne() throws Exception {
        Path raw = tmp.resolve("zram-init-lock");
        assertFalse(GuestModel.hasAb(raw));
        LabKernelFiles.iops(tmp, "zram-init-lock");
        assertTrue(GuestModel.hasAb(raw));
        SwitchSweep s = SwitchSweep.of(LabAb.read(raw.resolve("lab-kernel")).orElseThrow(), false, null);
        // the fixture's after costs 1000 ns per I/O (its before 1014 at N = 1)
        assertEquals(1000.0, GuestModel.guestNs(s).orElseThrow(), 1e-9);
        Files.delete(raw.resolve("lab-kernel").resolve(LabAb.TRIALS));
        assertFalse(GuestModel.hasAb(raw));
    }
}
