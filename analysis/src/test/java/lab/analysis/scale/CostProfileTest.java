package lab.analysis.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** profile.json read back as written, and refused where a kind is missing or a number is not one, naming file and field. */
class CostProfileTest {
    static final List<String> KINDS = List.of("rmw", "cas", "rwsem-read", "mutex", "store", "srcu", "percpu-slot");

    @TempDir
    Path dir;

    Path write(String name, Object json) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, new ObjectMapper().writeValueAsString(json));
        return f;
    }

    @Test
    void aWrittenProfileReadsBack() throws Exception {
        CostProfile p = AtScaleTest.flat(40, 30);
        CostProfile back = CostProfile.read(write("p.json", p.json()), KINDS);
        assertEquals(p.kinds(), back.kinds());
        assertEquals(p.machine(), back.machine());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aMissingKindIsRefusedNamingFileAndField() throws Exception {
        Map<String, Object> j = AtScaleTest.flat(40, 30).json();
        ((Map<String, Object>) j.get("kinds")).remove("mutex");
        Path f = write("missing.json", j);
        ProfileFormatException e = assertThrows(ProfileFormatException.class, () -> CostProfile.read(f, KINDS));
        assertEquals("kinds.mutex", e.field());
        assertTrue(e.getMessage().startsWith(f + ": kinds.mutex: missing"), e.getMessage());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aBadNumberIsRefusedNamingFileAndField() throws Exception {
        Map<String, Object> j = AtScaleTest.flat(40, 30).json();
        Map<String, Object> rmw = (Map<String, Object>) ((Map<String, Object>) j.get("kinds")).get("rmw");
        ((Map<String, Object>) rmw.get("transfer_ns")).put("value", "fast");
        Path f = write("bad.json", j);
        ProfileFormatException e = assertThrows(ProfileFormatException.class, () -> CostProfile.read(f, KINDS));
        assertEquals("kinds.rmw.transfer_ns.value", e.field());
        ((Map<String, Object>) rmw.get("transfer_ns")).put("value", 31);
        ((Map<String, Object>) rmw.get("transfer_ns")).put("ci95", List.of(20, 30));
        Path g = write("outside.json", j);
        assertEquals("kinds.rmw.transfer_ns.ci95", assertThrows(ProfileFormatException.class, () -> CostProfile.read(g, KINDS)).field());
        ((Map<String, Object>) rmw.get("transfer_ns")).put("ci95", List.of(20, 40));
        ((Map<String, Object>) j.get("machine")).put("cores", 0);
        assertEquals("cores", assertThrows(ProfileFormatException.class, () -> CostProfile.read(write("c.json", j), KINDS)).field());
    }

    @Test
    void aPublishedProfileCitesItsFigures() throws Exception {
        Map<String, Object> j = AtScaleTest.flat(40, 30).json();
        j.put("source", "published");
        assertEquals("sources", assertThrows(ProfileFormatException.class, () -> CostProfile.read(write("p.json", j), KINDS)).field());
    }
}
