package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The table of fio 3.33's options: consistent with {@link Keys}, each spelling once, and, where fio is installed, complete. */
class OptionTableTest {
    /** A line of {@code fio --cmdhelp} or {@code --enghelp=ENGINE}: {@code name : description}, maybe indented. */
    private static final Pattern HELP_LINE = Pattern.compile("^\\s*([A-Za-z0-9_-]+)\\s*:");

    @Test
    void theImplementedRowsAreExactlyTheFioSpellingsKeysAccepts() {
        Set<String> fioSpellings = new TreeSet<>(Keys.spellings());
        fioSpellings.removeAll(Keys.labKeys());
        assertEquals(fioSpellings, new TreeSet<>(OptionTable.spellings(OptionClass.IMPLEMENTED)));
    }

    @Test
    void theLabsOwnKeysAreAcceptedButAreNotFios() {
        for (String k : Keys.labKeys()) {
            assertTrue(Keys.spellings().contains(k), k);
            assertTrue(OptionTable.find(k).isEmpty(), k + " is the lab's, not fio's");
        }
    }

    @Test
    void everySpellingIsInOneRowOnly() {
        List<String> all = OptionTable.all().stream().flatMap(o -> o.spellings().stream()).toList();
        Set<String> seen = new HashSet<>();
        List<String> twice = all.stream().filter(s -> !seen.add(s)).toList();
        assertEquals(List.of(), twice);
        for (String s : all) {
            assertTrue(OptionTable.find(s).orElseThrow().spellings().contains(s), s);
        }
    }

    @Test
    void everyClassHasRowsAndOnlyTheImplementedLackAReason() {
        for (OptionClass c : OptionClass.values()) {
            List<FioOption> rows = OptionTable.of(c);
            assertFalse(rows.isEmpty(), c.toString());
            for (FioOption o : rows) {
                assertEquals(c == OptionClass.IMPLEMENTED, o.reason() == null, o.toString());
                assertTrue(o.reason() == null || !o.reason().isBlank(), o.toString());
            }
            List<String> names = rows.stream().map(FioOption::name).toList();
            assertEquals(names.stream().sorted().toList(), names, "sorted by name");
        }
        int total = 0;
        for (OptionClass c : OptionClass.values()) {
            total += OptionTable.of(c).size();
        }
        assertEquals(OptionTable.all().size(), total);
    }

    @Test
    void outputOnlyOptionsHaveNoEffectAndOnesThatChangeTheIoAreRefused() {
        for (String k : List.of("description", "write_lat_log", "log_avg_msec", "clat_percentiles", "disable_bw")) {
            assertEquals(OptionClass.NO_EFFECT, OptionTable.find(k).orElseThrow().optionClass(), k);
        }
        for (String k : List.of("zonemode", "softrandommap", "verify_state_load", "bs_unaligned", "nowait")) {
            assertEquals(OptionClass.REFUSED, OptionTable.find(k).orElseThrow().optionClass(), k);
        }
        for (String k : List.of("norandommap", "bssplit", "blocksize_range", "io_limit", "number_ios", "ratemin",
                "rate_iops", "thinktime", "ba", "loops", "verify_backlog", "do_verify", "fill_fs", "offset_increment", "dedupe_mode", "latency_target", "cmdprio_bssplit",
                "verify_offset")) {
            assertEquals(OptionClass.IMPLEMENTED, OptionTable.find(k).orElseThrow().optionClass(), k);
        }
    }

    // ---- against an installed fio 3.33 ------------------------------------------------

    @Test
    void everyGeneralOptionFioListsIsInTheTable() throws Exception {
        InstalledFio fio = fio33();
        List<String> names = optionNames(run(fio, "--cmdhelp=all"));
        assertTrue(names.size() > 150, "too few options parsed from fio --cmdhelp=all: " + names);
        assertEquals(List.of(), unknown(names), "fio --cmdhelp=all");
    }

    @Test
    void everyEngineOptionFioListsIsInTheTable() throws Exception {
        InstalledFio fio = fio33();
        List<String> engines = engines(run(fio, "--enghelp"));
        assertTrue(engines.contains("io_uring") && engines.contains("psync"), "engines: " + engines);
        List<String> missing = new ArrayList<>();
        for (String engine : engines) {
            unknown(optionNames(run(fio, "--enghelp=" + engine))).forEach(n -> missing.add(engine + ": " + n));
        }
        assertEquals(List.of(), missing);
        assertTrue(optionNames(run(fio, "--enghelp=io_uring")).contains("fixedbufs"), "io_uring's options parsed");
    }

    private static List<String> unknown(List<String> names) {
        return names.stream().filter(n -> OptionTable.find(n).isEmpty()).toList();
    }

    private static List<String> optionNames(String help) {
        List<String> names = new ArrayList<>();
        for (String line : help.split("\n")) {
            Matcher m = HELP_LINE.matcher(line);
            if (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** The indented names after {@code Available IO engines:}. */
    private static List<String> engines(String help) {
        return help.lines()
                .dropWhile(l -> !l.startsWith("Available IO engines"))
                .skip(1)
                .filter(l -> !l.isBlank() && Character.isWhitespace(l.charAt(0)))
                .map(String::strip)
                .toList();
    }

    private static InstalledFio fio33() throws Exception {
        return InstalledFio.require();
    }

    private static String run(InstalledFio fio, String arg) throws IOException, InterruptedException {
        return fio.run(arg).output();
    }
}
