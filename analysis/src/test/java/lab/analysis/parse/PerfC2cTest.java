package lab.analysis.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.analysis.MalformedResultException;
import lab.analysis.parse.PerfC2c.CacheLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code perf-c2c/c2c-report.txt} is a fixture in the documented format, not a capture: it is
 * {@code perf c2c report --stdio} laid out by {@code make-fixture.py} from perf 6.1's
 * {@code builtin-c2c.c} for made-up counts (see the README beside it); this machine's PMU
 * samples no loads, so no real report could be taken.
 */
class PerfC2cTest {
    @TempDir
    Path dir;

    @Test
    void topLinesByLocalPlusRemoteHitm() throws Exception {
        PerfC2c r = PerfC2c.read(fixture("c2c-report.txt"));
        assertEquals(3, r.lines().size());
        List<CacheLine> top = r.top(2);
        assertEquals(List.of("0xffff9a4bc2d81c40", "0xffff9a4bc0f2e000"), top.stream().map(CacheLine::address).toList(),
                "by local + remote HITM: 100, 80 (by local alone the order would be 60, 30, 10)");
        CacheLine first = top.getFirst();
        assertEquals(0, first.index());
        assertEquals(10, first.localHitm());
        assertEquals(90, first.remoteHitm());
        assertEquals(100, first.totalHitm());
        CacheLine second = top.get(1);
        assertEquals(60, second.localHitm());
        assertEquals(20, second.remoteHitm());
        assertEquals(List.of(100L, 80L, 30L), r.top(10).stream().map(CacheLine::totalHitm).toList());
        assertEquals(1, r.top(1).size());
    }

    @Test
    void eachLineKeepsTheSymbolsThatTouchedItMostHitmFirst() throws Exception {
        PerfC2c r = PerfC2c.read(fixture("c2c-report.txt"));
        List<CacheLine> top = r.top(3);
        assertEquals(List.of("mutex_lock", "dm_bufio_lock", "mutex_unlock"), top.get(0).symbols());
        assertEquals(List.of("[kernel.kallsyms]", "[dm_bufio]"), top.get(0).objects());
        assertEquals(List.of("blk_account_io_done", "update_io_ticks"), top.get(1).symbols(),
                "0x18 took 65 of the 80 HITMs, 0x10 (printed first, by offset) 15");
        assertEquals(List.of("zram_slot_lock", "td_io_queue"), top.get(2).symbols());
        assertEquals(List.of("[zram]", "fio"), top.get(2).objects());
        var access = top.get(0).accesses().get(1);
        assertEquals("0x8", access.offset());
        assertEquals("0xffffffffc0412a3b", access.codeAddress());
        assertEquals(22.22, access.rmtHitmPct(), 1e-9);
        assertEquals(40.00, access.lclHitmPct(), 1e-9);
    }

    @Test
    void malformedFixtureNamesFileAndLine() {
        assertMalformed(fixture("c2c-report-malformed.txt"), "line 74: Load Hitm Total 81 is not LclHitm 60 + RmtHitm 20");
    }

    @Test
    void malformedRowsNameFileAndLine() throws Exception {
        List<String> good = Files.readAllLines(fixture("c2c-report.txt"));
        int row = indexOf(good, "      0  0xffff9a4bc2d81c40");
        assertMalformed(edit("short.txt", good, row, good.get(row).substring(0, good.get(row).lastIndexOf("  "))),
                "line " + (row + 1) + ": 22 fields, the Shared Data Cache Line Table has 23");
        int cl = indexOf(good, "      1       20       60");
        assertMalformed(edit("rmt.txt", good, cl, good.get(cl).replace("      1       20", "      1       21")),
                "line " + (cl + 1) + ": HITM Rmt 21 Lcl 60 of 0xffff9a4bc0f2e000 differ from");
        assertMalformed(edit("addr.txt", good, cl, good.get(cl).replace("0xffff9a4bc0f2e000", "0xffff9a4bc0f2e040")),
                "line " + (cl + 1) + ": cache line 0xffff9a4bc0f2e040 is not in the Shared Data Cache Line Table");
        int off = indexOf(good, "         100.00%   75.00%");
        assertMalformed(edit("level.txt", good, off, good.get(off).replace("[k] ", "    ")),
                "line " + (off + 1) + ": no '[k] symbol object'");
        int header = indexOf(good, "# Index");
        assertMalformed(edit("peer.txt", good, header, good.get(header).replace("LclHitm  RmtHitm", "  Local   Remote")),
                "line " + (header + 4) + ": a row before the table's header");
        assertMalformed(write("stats.txt", good.subList(0, header - 4)), "no 'Shared Data Cache Line Table' section");
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new IllegalStateException("fixture has no line starting '" + prefix + "'");
    }

    private Path edit(String name, List<String> lines, int index, String replacement) throws Exception {
        return TextFixtures.edit(dir, name, lines, index, replacement);
    }

    private Path write(String name, List<String> lines) throws Exception {
        return Files.write(dir.resolve(name), lines);
    }

    private static void assertMalformed(Path f, String problem) {
        TextFixtures.assertMalformed(PerfC2c::read, f, problem);
    }

    static Path fixture(String name) {
        return TextFixtures.resource("perf-c2c/" + name);
    }
}
