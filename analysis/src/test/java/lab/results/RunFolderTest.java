package lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunFolderTest {
    @TempDir
    Path results;

    @Test
    void commitMovesTheCompleteRunIntoPlace() throws Exception {
        RunFolder run = RunFolder.start(results, "r1");
        run.writeJson("manifest.json", Map.of("cores", 2));
        run.writeText("NOTEBOOK.md", "# x\n");
        assertFalse(Files.exists(results.resolve("r1")), "nothing visible before commit");
        Path done = run.commit();
        assertEquals(results.resolve("r1"), done);
        assertTrue(Files.isDirectory(done.resolve("raw")));
        assertEquals("# x\n", Files.readString(done.resolve("NOTEBOOK.md")));
        assertFalse(Files.exists(results.resolve(".r1.partial")));
    }

    /** A run the JVM leaves unfinished keeps its partial folder, marked; a committed one is not marked. */
    @Test
    void anUnfinishedRunIsMarkedInterruptedOnTheWayOut() throws Exception {
        RunFolder open = RunFolder.start(results, "open-run");
        assertTrue(open.markUnfinished());
        assertTrue(Files.readString(open.dir().resolve("INTERRUPTED")).contains("before this run finished"));
        RunFolder done = RunFolder.start(results, "done-run");
        Path committed = done.commit();
        assertFalse(done.markUnfinished(), "nothing to mark once committed");
        assertFalse(Files.exists(committed.resolve("INTERRUPTED")));
    }

    @Test
    void abandonLeavesNoFolder() throws Exception {
        RunFolder run = RunFolder.start(results, "r2");
        run.writeText("raw/x.json", "[]");
        run.abandon();
        try (var s = Files.list(results)) {
            assertEquals(0, s.count(), "an abandoned run leaves nothing behind");
        }
    }

    @Test
    void neverOverwritesAnExistingRun() throws Exception {
        Files.createDirectories(results.resolve("r3"));
        Files.writeString(results.resolve("r3/keep"), "old");
        assertThrows(FileAlreadyExistsException.class, () -> RunFolder.start(results, "r3"));
        assertEquals("old", Files.readString(results.resolve("r3/keep")));
    }

    @Test
    void manifestRecordsTheMachineAndCommand() {
        Map<String, Object> m = Manifest.describe(Path.of("."), "./lab demo", "jvm");
        assertEquals("./lab demo", m.get("command"));
        assertEquals(Runtime.getRuntime().availableProcessors(), m.get("cores"));
        assertTrue(m.containsKey("kernel") && m.containsKey("jdk") && m.containsKey("commit"));
        assertEquals("jvm", m.get("environment"));
    }
}
