package lab.fix.dmblkcgclone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.analysis.MalformedResultException;
import lab.engine.bench.DmBlkcgClone.Result;
import lab.fix.dmblkcgclone.DmBlkcgClone.Weights;
import lab.fix.dmblkcgclone.DmBlkcgCloneRaw.KernelRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The raw-file contract: the model's rounds written and read back whole, and the kernel's runs.tsv. */
class DmBlkcgCloneRawTest {
    @TempDir
    Path tmp;

    @Test
    void aRoundOfResultsReadsBackAsWrittenOneResultALine() throws Exception {
        List<Result> round = Fixture.round(2, 1000);
        Path f = DmBlkcgCloneRaw.file(tmp, DmBlkcgCloneRaw.MODEL, 2);
        assertEquals("model-r2.json", f.getFileName().toString());
        DmBlkcgCloneRaw.write(f, round);
        List<Result> back = DmBlkcgCloneRaw.read(f);
        assertEquals(round, back, "config, bytes, window, charges, timeline and errors, in the order run");
        assertEquals(round.size() + 2, Files.readAllLines(f).size(), "[, one result a line, ]");
        assertEquals("transfer", back.getFirst().config().variant(), "round 2 runs transfer first");
        assertEquals(2.0, back.getFirst().ratio(), 1e-6, "linear1, direct, 1000:500: the weights' ratio");
    }

    @Test
    void aTruncatedRoundIsMalformedNamingItsFile() throws Exception {
        Path f = DmBlkcgCloneRaw.file(tmp, DmBlkcgCloneRaw.CALIBRATED, 1);
        DmBlkcgCloneRaw.write(f, Fixture.round(1, 295));
        Files.writeString(f, Files.readString(f).substring(0, 300));
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> DmBlkcgCloneRaw.read(f));
        assertTrue(e.getMessage().contains("calibrated-r1.json") && e.problem().startsWith("not a JSON array of DmBlkcgClone results"),
                e.getMessage());
    }

    @Test
    void runsTsvRowsParseWithUnknownChargesAsNull() throws Exception {
        Path k = tmp.resolve("kernel");
        Fixture.kernel(k);
        List<KernelRow> rows = DmBlkcgCloneRaw.readRuns(k.resolve("runs.tsv"));
        assertEquals(8, rows.size(), "the Fixture's kernel rows: loop direct x3, loop buffered, guest thin buffered x3, thin direct");
        KernelRow first = rows.getFirst();
        assertEquals("native", first.env());
        assertEquals("loop", first.stack());
        assertEquals("direct", first.path());
        assertEquals(new Weights(500, 500), first.weights());
        assertEquals(1, first.round());
        assertEquals("native-loop-direct-500-500-r1-a.fio.json", first.aJson());
        assertNull(first.aWbytes(), "'-': unknown");
        assertNull(first.devWbytes());
        assertEquals(6.5, first.seconds());
        KernelRow thin = rows.get(4);
        assertEquals(600L, thin.aWbytes());
        assertEquals(300L, thin.bWbytes());
        assertEquals(1000L, thin.devWbytes());
    }

    @Test
    void aMalformedRunsTsvLineIsAnErrorNamingTheFileAndLine() throws IOException {
        Path tsv = tmp.resolve("runs.tsv");
        String good = "guest\tthin\tbuffered\t1000\t500\t1\ta.json\tb.json\t-\t-\t-\t3.0";
        Files.writeString(tsv, Fixture.HEADER + "\n" + good + "\nguest\tthin\tbuffered\t1000\n");
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> DmBlkcgCloneRaw.readRuns(tsv));
        assertTrue(e.getMessage().contains("runs.tsv: line 3: 4 tab-separated fields, not 12"), e.getMessage());

        Files.writeString(tsv, Fixture.HEADER + "\n" + good.replace("guest", "vm") + "\n");
        e = assertThrows(MalformedResultException.class, () -> DmBlkcgCloneRaw.readRuns(tsv));
        assertTrue(e.getMessage().contains("runs.tsv: line 2: env 'vm' is not one of [native, guest]"), e.getMessage());

        Files.writeString(tsv, Fixture.HEADER + "\n" + good.replace("\t-\t-\t-\t", "\t-\tmany\t-\t") + "\n");
        e = assertThrows(MalformedResultException.class, () -> DmBlkcgCloneRaw.readRuns(tsv));
        assertTrue(e.getMessage().contains("line 2: b_wbytes 'many' is neither a byte count nor '-'"), e.getMessage());

        Files.writeString(tsv, "env\tstack\n" + good + "\n");
        e = assertThrows(MalformedResultException.class, () -> DmBlkcgCloneRaw.readRuns(tsv));
        assertTrue(e.getMessage().contains("runs.tsv: line 1: the header is not env<TAB>stack<TAB>path"), e.getMessage());
    }
}
