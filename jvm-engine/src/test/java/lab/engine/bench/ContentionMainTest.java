package lab.engine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ContentionMain: a JmhBatch line's cells counted, each line's into one JSON. */
class ContentionMainTest {
    @Test
    void aLinesCellsAreTheProductOfItsValuesAndEachIsCounted(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("contention-runs.txt");
        Files.writeString(f, "model-contention-r1 lab\\.engine\\.bench\\.ThinBufioLock\\.io$ -t 2 -P variant=striped -P amp=0 -P amp=2"
                + " -P cache=whole -P target=thin -P baseNs=0 -wi 4 -w 500ms\n");
        JmhBatch.Run r = JmhBatch.read(f, tmp).get(0);
        assertEquals(List.of(Map.of("variant", "striped", "amp", "0", "target", "thin", "cache", "whole", "baseNs", "0", "userNs", "0"),
                Map.of("variant", "striped", "amp", "2", "target", "thin", "cache", "whole", "baseNs", "0", "userNs", "0")),
                ContentionMain.cells(r));
        ContentionMain.runFile(f, tmp, 300);
        String j = Files.readString(tmp.resolve("model-contention-r1.json"));
        assertTrue(j.contains("\"benchmark\": \"lab.engine.bench.ThinBufioLock.io\""), j);
        assertTrue(j.contains("\"threads\": 2") && j.contains("\"ios_per_thread\": 300"), j);
        assertEquals(2, j.split("\"ios\": 600").length - 1, j);
        assertTrue(j.contains("\"bufio.lock\": {\"mutex\": {\"lockAcquired\": "), j);
    }

    @Test
    void aLineWithoutAContentionRunOrAParameterIsRefused(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        Files.writeString(f, "a lab\\.engine\\.bench\\.Primitives\\.getPut$ -t 2\nb lab\\.engine\\.bench\\.PartAcct\\.io -P variant=lazy\n");
        List<JmhBatch.Run> runs = JmhBatch.read(f, tmp);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ContentionMain.cells(runs.get(0)));
        assertTrue(e.getMessage().contains("names 0 benchmark(s)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ContentionMain.cells(runs.get(1)));
        assertTrue(e.getMessage().contains("no -P amp=VALUE"), e.getMessage());
    }
}
