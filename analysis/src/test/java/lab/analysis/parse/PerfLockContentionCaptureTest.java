package lab.analysis.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import lab.analysis.parse.PerfLockContention.CallerSum;
import org.junit.jupiter.api.Test;

/**
 * {@link PerfLockContention} on tables captured from the lab kernel (resources
 * perf-lock/captured/README.md says how): zram's init_lock read side with a writer hammering it
 * (the positive control), the same with callstacks, and readers alone (no contention).
 */
class PerfLockContentionCaptureTest {
    private static Path captured(String name) {
        return TextFixtures.resource("perf-lock/captured/" + name);
    }

    @Test
    void theWritersControlHasTheReadersContentionAtZramSubmitBio() throws Exception {
        PerfLockContention t = PerfLockContention.read(captured("zram-rwsem-writer.txt"));
        assertEquals(10, t.rows().size());
        PerfLockContention.Row first = t.rows().get(0);
        assertEquals(2725, first.contended());
        assertEquals("rwsem:R", first.type());
        assertEquals("zram_submit_bio+0x7a", first.caller());
        assertEquals(1.18e9, first.waitTotalNs(), 1);
        // two rows, two callchains of one caller: 2725 + 3 contentions, 1.18 s + 16.35 ms
        CallerSum zram = t.sumAt(Set.of("zram_submit_bio"));
        assertEquals(2, zram.rows());
        assertEquals(2728, zram.contended());
        assertEquals(1.18e9 + 16.35e6, zram.waitTotalNs(), 1);
        assertEquals(2728 / 40000.0, zram.contendedPerIo(40000), 1e-12);
        // the rest: kernfs's own rwsem readers, the writer loop's path walks (11+6+3+2+1+1+1+1 = 26)
        long others = t.rows().stream().filter(r -> !r.symbol().equals("zram_submit_bio")).mapToLong(PerfLockContention.Row::contended).sum();
        assertEquals(26, others);
        assertTrue(t.preamble().isEmpty(), t.preamble().toString());
    }

    @Test
    void theVerboseCaptureKeepsPerfsMessagesAndEachRowsCallstack() throws Exception {
        PerfLockContention t = PerfLockContention.read(captured("zram-rwsem-writer-v.txt"));
        assertEquals(5, t.rows().size());
        assertTrue(t.preamble().contains("Using /proc/kallsyms for symbols"), t.preamble().toString());
        assertEquals(List.of("0xffffffff81070945  trace_contention_begin+0x37", "0xffffffff813ce295  rwsem_down_read_slowpath+0x199",
                "0xffffffff813ce75f  down_read+0x2d", "0xffffffff812cfd0f  zram_submit_bio+0x7a"), t.rows().get(0).callstack().subList(0, 4));
        // -E 5 keeps both of zram_submit_bio's rows (2725 and 3: the fifth by contentions)
        assertEquals(2728, t.sumAt(Set.of("zram_submit_bio")).contended());
    }

    @Test
    void readersAloneLeaveAnEmptyTable() throws Exception {
        PerfLockContention t = PerfLockContention.read(captured("zram-rwsem-readers.txt"));
        assertTrue(t.rows().isEmpty());
        assertEquals(0, t.sumAt(Set.of("zram_submit_bio")).contended());
    }

    @Test
    void theThinClientMutexIsNamedByItsSitesCallers() throws Exception {
        PerfLockContention t = PerfLockContention.read(captured("thin-mutex.txt"));
        assertEquals(List.of("mutex"), t.rows().stream().map(PerfLockContention.Row::type).distinct().toList());
        // 1845 + 443 at dm_bufio_release (two callchains), 1222 at new_read, 131 at the site itself
        assertEquals(2288, t.sumAt(Set.of("dm_bufio_release")).contended());
        CallerSum all = t.sumAt(Set.of("dm_bufio_lab_lock_op", "new_read", "dm_bufio_release"));
        assertEquals(3641, all.contended());
        assertEquals(17.23e6 + 85.30e6 + 24.35e6 + 2.49e6, all.waitTotalNs(), 1);
    }
}
