package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.jobspec.OptionClass;
import lab.jobspec.OptionTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spec keys} lists fio's options by class; {@code spec check} prints a notice for an option with no effect. */
class SpecCommandTest extends CapturedStreams {
    @TempDir
    Path dir;

    /** The lines of {@code spec keys}' section for {@code c}: from its heading to the next. */
    private static List<String> section(List<String> lines, OptionClass c) {
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(c + " (")) {
                start = i;
            }
        }
        assertTrue(start >= 0, "no heading for " + c + " in " + lines);
        int end = start + 1;
        while (end < lines.size() && lines.get(end).startsWith("  ")) {
            end++;
        }
        return lines.subList(start + 1, end);
    }

    @Test
    void keysListsTheThreeClassesEachSortedWithReasons() {
        assertEquals(0, Lab.run("spec", "keys"));
        List<String> lines = out.toString().lines().toList();
        for (OptionClass c : OptionClass.values()) {
            List<String> rows = section(lines, c);
            assertEquals(OptionTable.of(c).size(), rows.size(), c.toString());
            List<String> names = rows.stream().map(r -> r.strip().split("[ :]", 2)[0]).toList();
            assertEquals(names.stream().sorted().toList(), names, c + " sorted by name");
        }
        assertEquals(OptionTable.all().size() + OptionClass.values().length, lines.size(), "headings and rows only");
        String refused = OptionTable.find("zonemode").orElseThrow().reason();
        assertTrue(section(lines, OptionClass.REFUSED).contains("  zonemode: " + refused), out.toString());
        String noEffect = OptionTable.find("description").orElseThrow().reason();
        assertTrue(section(lines, OptionClass.NO_EFFECT).contains("  description: " + noEffect), out.toString());
        assertTrue(section(lines, OptionClass.IMPLEMENTED).contains("  bs (blocksize)"), out.toString());
        assertTrue(section(lines, OptionClass.IMPLEMENTED).contains("  stonewall (wait_for_previous)"), out.toString());
        assertTrue(section(lines, OptionClass.REFUSED).contains("  bs_unaligned (blocksize_unaligned): "
                + OptionTable.find("bs_unaligned").orElseThrow().reason()), out.toString());
        assertTrue(section(lines, OptionClass.IMPLEMENTED).contains("  fill_device (fill_fs)"), out.toString());
        assertTrue(section(lines, OptionClass.IMPLEMENTED).contains("  rate_min (ratemin)"), out.toString());
    }

    @Test
    void checkPrintsANoticeForAnOptionWithNoEffectBeforeTheJobs() throws Exception {
        Path f = dir.resolve("job.fio");
        Files.writeString(f, "[a]\ndescription=a described job\nsize=1m\n");
        assertEquals(0, Lab.run("spec", "check", f.toString()));
        List<String> lines = out.toString().lines().toList();
        assertEquals(f + ":2: key 'description': accepted, no effect here ("
                + OptionTable.find("description").orElseThrow().reason() + ")", lines.get(0));
        assertEquals(2, lines.size(), out.toString());
        assertEquals("", err.toString());
    }

    @Test
    void checkOfARefusedOptionExits2WithTheReason() throws Exception {
        Path f = dir.resolve("job.fio");
        Files.writeString(f, "[a]\nsize=1m\nzonemode=zbd\n");
        assertEquals(2, Lab.run("spec", "check", f.toString()));
        assertTrue(err.toString().startsWith("lab: " + f + ":3: key 'zonemode': fio option 'zonemode' is not supported by the lab: "),
                err.toString());
        assertEquals("", out.toString());
    }
}
