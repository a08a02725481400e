package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import lab.engine.block.AcctMode;
import lab.engine.load.DataPattern;
import lab.engine.sync.PrimitiveKind;
import lab.engine.zram.Compressor;
import lab.engine.zram.GuardKind;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/**
 * One test per JMH benchmark: its {@code @Param} values, read by reflection, are the engine's ids
 * for the things they name, so that a variant renamed or added on one side only fails here and
 * not in a notebook. A last test fails for a {@code @Param} that no test here checks.
 */
class BenchParamsTest {

    /** Every {@code @Param} field of the benchmarks, "Class$State.field", and what checks it. */
    private static final Map<String, String> CHECKED = Map.ofEntries(
            Map.entry("Primitives$Shared.primitive", "PrimitiveKind ids"),
            Map.entry("Primitives$Shared.line", "Primitives.Line ids"),
            Map.entry("Primitives$Shared.gapNs", "numbers: ns of calibrated work between pairs"),
            Map.entry("Primitives$Shared.userGapNs", "numbers: ns of calibrated work after every second pair"),
            Map.entry("ZramInitLock$Device.baseNs", "numbers: ns of calibrated work per I/O"),
            Map.entry("PartAcct$Disk.baseNs", "numbers: ns of calibrated work per I/O"),
            Map.entry("PartAcct$Disk.userNs", "numbers: ns of calibrated work per I/O in the submitter"),
            Map.entry("ZramInitLock$Device.guard", "GuardKind ids"),
            Map.entry("ZramInitLock$Device.rw", "the embedded zram-init-lock-<rw>.fio examples"),
            Map.entry("ZramInitLock$Device.pattern", "DataPattern ids"),
            Map.entry("ZramInitLock$Device.compressor", "Compressor ids"),
            Map.entry("ZramInitLock$Device.sizeMiB", "a number: the model's device size"),
            Map.entry("PartAcct$Disk.variant", "AcctMode ids"),
            Map.entry("PartAcct$Disk.target", "PartAcct.Target ids"),
            Map.entry("PartAcct$Disk.hz", "a number: CONFIG_HZ"),
            Map.entry("PartAcct$Disk.slots", "a number; PartInFlightSum covers it"),
            Map.entry("PartInFlightSum$Stats.slots", "numbers, covering PartAcct's"),
            Map.entry("DmCssRef$Stack.variant", "CssForward ids"),
            Map.entry("DmCssRef$Stack.depth", "a number: dm-linear layers"),
            Map.entry("DmCssRef$Stack.device", "DmCssRef's devices: ram, null"),
            Map.entry("DmCssRef$Stack.inject", "none or a value Inject.parse takes"),
            Map.entry("DmCssRef$Stack.baseNs", "numbers: ns of calibrated work per I/O"),
            Map.entry("DmCssRef$Stack.userNs", "numbers: ns of calibrated work per I/O in the worker"),
            Map.entry("ThinBufioLock$Stack.variant", "BufioLocking ids"),
            Map.entry("ThinBufioLock$Stack.target", "ThinBufioLock.TARGETS"),
            Map.entry("ThinBufioLock$Stack.cache", "ThinBufioLock.CACHES"),
            Map.entry("ThinBufioLock$Stack.baseNs", "numbers: ns of calibrated work per I/O"),
            Map.entry("ThinBufioLock$Stack.userNs", "numbers: ns of calibrated work per I/O in the worker"),
            Map.entry("ZramInitLock$Device.sections", "the lab switch's count: 1, the guard alone"),
            Map.entry("PartAcct$Disk.amp", "the lab switch's count: 0, none"),
            Map.entry("ThinBufioLock$Stack.amp", "the lab switch's count: 0, none"));

    static List<String> params(Class<?> state, String field) {
        try {
            Param p = state.getDeclaredField(field).getAnnotation(Param.class);
            assertNotNull(p, state.getSimpleName() + "." + field + " has no @Param");
            return List.of(p.value());
        } catch (NoSuchFieldException e) {
            throw new AssertionError(state.getName() + " has no field " + field, e);
        }
    }

    @Test
    void primitivesVariantsArePrimitiveKinds() {
        assertEquals(PrimitiveKind.ids(), params(Primitives.Shared.class, "primitive"));
        List<String> lines = params(Primitives.Shared.class, "line");
        assertEquals("shared", lines.get(0), "the default run measures the shared line");
        assertTrue(Primitives.Line.ids().containsAll(lines), lines + " are not all Line ids " + Primitives.Line.ids());
    }

    /** Work in ns (base_ns per I/O, the gap between pairs): whole numbers, 0 first (the raw model), none negative. */
    @Test
    void workParamsAreNanosecondCounts() {
        for (List<String> values : List.of(params(PartAcct.Disk.class, "baseNs"), params(PartAcct.Disk.class, "userNs"),
                params(ZramInitLock.Device.class, "baseNs"), params(DmCssRef.Stack.class, "baseNs"), params(DmCssRef.Stack.class, "userNs"),
                params(ThinBufioLock.Stack.class, "baseNs"), params(ThinBufioLock.Stack.class, "userNs"),
                params(Primitives.Shared.class, "gapNs"), params(Primitives.Shared.class, "userGapNs"))) {
            assertEquals("0", values.get(0), "the default is no work: the raw model");
            for (String v : values) {
                assertTrue(Long.parseLong(v) >= 0, v);
            }
        }
    }

    /** The lab switches' counts (the amplified model's): by default none, the benchmark as it was. */
    @Test
    void labSwitchCountsDefaultToNone() {
        assertEquals(List.of("1"), params(ZramInitLock.Device.class, "sections"));
        assertEquals(List.of("0"), params(PartAcct.Disk.class, "amp"));
        assertEquals(List.of("0"), params(ThinBufioLock.Stack.class, "amp"));
    }

    /** The annotations list engine ids only: an A/A control is asked for with -p, never listed. */
    @Test
    void noControlIsListed() {
        for (List<String> values : List.of(params(PartAcct.Disk.class, "variant"), params(ZramInitLock.Device.class, "guard"),
                params(DmCssRef.Stack.class, "variant"), params(ThinBufioLock.Stack.class, "variant"),
                params(Primitives.Shared.class, "primitive"))) {
            for (String v : values) {
                assertEquals(v, Variants.id(v));
            }
        }
    }

    @Test
    void zramInitLockParamsAreTheEnginesIds() throws Exception {
        Class<?> s = ZramInitLock.Device.class;
        assertEquals(Arrays.stream(GuardKind.values()).map(GuardKind::cliName).toList(), params(s, "guard"));
        assertEquals(DataPattern.ids(), params(s, "pattern"));
        List<String> compressors = Arrays.stream(Compressor.values()).map(Compressor::cliName).toList();
        for (String c : params(s, "compressor")) {
            assertTrue(compressors.contains(c), "compressor " + c + " is no Compressor " + compressors);
        }
        List<String> examples = new ArrayList<>();
        for (String name : embeddedExamples()) {
            if (name.startsWith(ZramInitLock.EXAMPLE_PREFIX)) {
                examples.add(name.substring(ZramInitLock.EXAMPLE_PREFIX.length()));
            }
        }
        assertEquals(examples.stream().sorted().toList(), params(s, "rw").stream().sorted().toList(),
                "one rw variant per examples/zram-init-lock-<rw>.fio");
    }

    @Test
    void partAcctParamsAreTheEnginesIds() {
        Class<?> s = PartAcct.Disk.class;
        assertEquals(AcctMode.ids(), params(s, "variant"));
        assertEquals(Arrays.stream(PartAcct.Target.values()).map(PartAcct.Target::id).toList(), params(s, "target"));
    }

    @Test
    void dmCssRefParamsAreTheEnginesIds() {
        Class<?> s = DmCssRef.Stack.class;
        assertEquals(lab.engine.blkcg.CssForward.ids(), params(s, "variant"));
        for (String d : params(s, "depth")) {
            assertTrue(Integer.parseInt(d) >= 0, d);
        }
        assertEquals(List.of("ram"), params(s, "device"), "the seed's device, brd, by default");
        for (String i : params(s, "inject")) {
            assertTrue(i.equals("none") || !lab.jobspec.Inject.parse(i).isEmpty(), i);
        }
    }

    /** PartInFlightSum has no variant: its slots must include PartAcct's, whose per-tick sum it prices. */
    @Test
    void thinBufioLockParamsAreTheEnginesIds() {
        Class<?> s = ThinBufioLock.Stack.class;
        assertEquals(lab.engine.bufio.BufioLocking.ids(), params(s, "variant"));
        assertEquals("thin", params(s, "target").get(0), "the default run is the thin device");
        assertTrue(ThinBufioLock.TARGETS.containsAll(params(s, "target")), params(s, "target").toString());
        assertEquals("whole", params(s, "cache").get(0), "the default run caches the whole tree, as the seed's steady state");
        assertTrue(ThinBufioLock.CACHES.containsAll(params(s, "cache")), params(s, "cache").toString());
    }

    @Test
    void partInFlightSumSlotsCoverPartAcct() {
        List<String> sums = params(PartInFlightSum.Stats.class, "slots");
        for (String slots : params(PartAcct.Disk.class, "slots")) {
            assertTrue(sums.contains(slots), "PartAcct slots=" + slots + " not among PartInFlightSum's " + sums);
        }
    }

    @Test
    void everyParamIsChecked() throws Exception {
        Set<String> found = new TreeSet<>();
        Path dir = classesDir();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String simple = f.getFileName().toString().replace(".class", "");
                Class<?> c = Class.forName("lab.engine.bench." + simple);
                for (Field field : c.getDeclaredFields()) {
                    if (field.isAnnotationPresent(Param.class)) {
                        found.add(simple + "." + field.getName());
                    }
                }
            }
        }
        Set<String> unchecked = new TreeSet<>(found);
        unchecked.removeAll(CHECKED.keySet());
        Set<String> gone = new TreeSet<>(CHECKED.keySet());
        gone.removeAll(found);
        assertEquals(Set.of(), unchecked, "@Params that no test here checks: check them and list them in CHECKED");
        assertEquals(Set.of(), gone, "CHECKED lists @Params that no benchmark has any more");
    }

    /** The examples the build embedded, by name without {@code .fio}. */
    static List<String> embeddedExamples() throws IOException, URISyntaxException {
        URL url = ExampleJob.class.getResource(ExampleJob.FOLDER);
        assertNotNull(url, "no embedded examples: the build copies ../examples/*.fio");
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".fio"))
                    .map(n -> n.substring(0, n.length() - 4)).sorted().toList();
        }
    }

    private static Path classesDir() throws URISyntaxException {
        URL url = PartAcct.class.getResource("PartAcct.class");
        assertNotNull(url);
        return Path.of(url.toURI()).getParent();
    }
}
