package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.Runner;

/** The batch file's runs: what JMH is told, what is refused (naming the line), and that a run lands in OUT/NAME.json. */
class JmhBatchTest {
    @TempDir
    Path tmp;

    private Path file(String... lines) throws Exception {
        Path f = tmp.resolve("runs.txt");
        Files.write(f, List.of(lines));
        return f;
    }

    @Test
    void eachLineIsARunInThisJvmIntoItsOwnJson() throws Exception {
        Path out = tmp.resolve("out");
        List<JmhBatch.Run> runs = JmhBatch.read(file("# a sweep", "", "amp-r1 Primitives.getPut$ -P primitive=mutex -P primitive=srcu -P inject=clone:atomic:1,end_io:atomic:1 -t 2"
                + " -wi 4 -w 500ms", "amp-aa-r1 Primitives.getPut$ -P primitive=mutex"), out);
        assertEquals(2, runs.size());
        JmhBatch.Run r = runs.get(0);
        assertEquals("amp-r1", r.name());
        assertEquals(3, r.line());
        assertEquals(0, r.options().getForkCount().get());
        assertEquals(out.resolve("amp-r1.json").toString(), r.options().getResult().get());
        assertEquals(List.of("mutex", "srcu"), List.copyOf(r.options().getParameter("primitive").get()));
        assertEquals(List.of("clone:atomic:1,end_io:atomic:1"), List.copyOf(r.options().getParameter("inject").get()),
                "a value with a comma is one value");
        assertEquals(2, r.options().getThreads().get());
        assertEquals(4, r.options().getWarmupIterations().get());
        assertEquals(out.resolve("amp-aa-r1.json").toString(), runs.get(1).options().getResult().get());
    }

    @Test
    void whatTheBatchSetsOrCannotTakeIsRefusedNamingTheLine() throws Exception {
        Path out = tmp.resolve("out");
        JmhBatch.Malformed f = assertThrows(JmhBatch.Malformed.class, () -> JmhBatch.read(file("a X", "b X -f 2"), out));
        assertTrue(f.getMessage().endsWith("runs.txt:2: -f is JmhBatch's to set (forks 0, JSON into OUT/NAME.json)"), f.getMessage());
        f = assertThrows(JmhBatch.Malformed.class, () -> JmhBatch.read(file("a X", "a Y"), out));
        assertTrue(f.getMessage().endsWith(":2: a second run named 'a'"), f.getMessage());
        f = assertThrows(JmhBatch.Malformed.class, () -> JmhBatch.read(file("../a X"), out));
        assertTrue(f.getMessage().contains(":1: '../a' is not a run's name"), f.getMessage());
        f = assertThrows(JmhBatch.Malformed.class, () -> JmhBatch.read(file("a X -t"), out));
        assertTrue(f.getMessage().contains(":1: JMH: "), f.getMessage());
        f = assertThrows(JmhBatch.Malformed.class, () -> JmhBatch.read(file("a X -p inject=a,b"), out));
        assertTrue(f.getMessage().endsWith(":1: -p splits its values on commas: give each value as -P name=value"), f.getMessage());
        f = assertThrows(JmhBatch.Malformed.class, () -> JmhBatch.read(file("a X -P inject"), out));
        assertTrue(f.getMessage().endsWith(":1: -P needs name=value"), f.getMessage());
        f = assertThrows(JmhBatch.Malformed.class, () -> JmhBatch.read(file("a"), out));
        assertTrue(f.getMessage().endsWith(":1: no benchmark named"), f.getMessage());
        f = assertThrows(JmhBatch.Malformed.class, () -> JmhBatch.read(file("# none"), out));
        assertTrue(f.getMessage().endsWith(":1: no run in the file"), f.getMessage());
    }

    /** One short real run (forks 0, in this JVM): its JSON has the cell the line asked for. */
    @Test
    void aRunWritesJmhsJsonUnderItsName() throws Exception {
        Path out = tmp.resolve("out");
        Files.createDirectories(out);
        List<JmhBatch.Run> runs = JmhBatch.read(file("cell Primitives.getPut$ -P primitive=padded-slot -P line=private -t 1 -wi 1 -w 20ms"
                + " -i 1 -r 20ms"), out);
        new Runner(runs.get(0).options()).run();
        JsonNode j = new ObjectMapper().readTree(out.resolve("cell.json").toFile());
        assertEquals(1, j.size());
        assertEquals("padded-slot", j.get(0).path("params").path("primitive").asText());
        assertEquals(0, j.get(0).path("forks").asInt());
        assertTrue(j.get(0).path("primaryMetric").path("score").asDouble() > 0);
    }

    /** Widening to the CPUs this JVM has takes (checked in /proc/self/status); to a CPU the machine lacks it says why. */
    @Test
    void theJvmIsWidenedToTheCpusItIsGivenOrSaysWhyNot() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "Linux only");
        String now = JmhBatch.cpusAllowed();
        assertTrue(now.matches("[0-9][0-9,-]*"), now);
        assertEquals(null, JmhBatch.widen(now));
        String why = JmhBatch.widen("4095");
        assertTrue(why != null && why.startsWith("taskset -a -p -c 4095 left this JVM on CPUs " + now), why);
        assertEquals(now, JmhBatch.cpusAllowed());
    }
}
