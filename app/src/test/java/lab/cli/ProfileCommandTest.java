package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import lab.analysis.scale.CostProfile;
import lab.fix.Fixes;
import lab.fix.ProfileSweep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./lab profile}'s refusals (exit 2, file and field named, no run folder) and what a run carries. */
class ProfileCommandTest extends CapturedStreams {
    @TempDir
    Path dir;

    /** A published profile of the lab's own, as the build carries it. */
    static ObjectNode published() throws Exception {
        try (var in = ProfileCommand.class.getResourceAsStream("/lab/profile/published/" + ProfileCommand.MANY_CORE)) {
            return (ObjectNode) new ObjectMapper().readTree(in);
        }
    }

    int refuse(ObjectNode profile, String name) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, profile.toString());
        return Lab.run("profile", "--profile", f.toString(), "--results", dir.resolve("results").toString(), "--id", "p");
    }

    @Test
    void aProfileWithAKindMissingIsRefusedNamingFileAndField() throws Exception {
        ObjectNode p = published();
        ((ObjectNode) p.get("kinds")).remove("rwsem-read");
        assertEquals(Lab.EXIT_BAD_INPUT, refuse(p, "other.json"));
        String e = err.toString().strip();
        assertEquals(1, e.lines().count(), e);
        assertTrue(e.startsWith("lab: profile: " + dir.resolve("other.json") + ": kinds.rwsem-read: missing"), e);
        assertFalse(Files.exists(dir.resolve("results")), "no run folder");
    }

    @Test
    void aProfileWithABadNumberIsRefusedNamingFileAndField() throws Exception {
        ObjectNode p = published();
        ((ObjectNode) p.get("kinds").get("cas").get("service_ns")).put("value", -3);
        assertEquals(Lab.EXIT_BAD_INPUT, refuse(p, "neg.json"));
        assertTrue(err.toString().contains("neg.json: kinds.cas.service_ns.value: not a finite number of at least 0 ns: -3"), err.toString());
        assertFalse(Files.exists(dir.resolve("results")), "no run folder");
    }

    @Test
    void aProfileNamedAsAPublishedOneAndBadOptionsAreRefused() throws Exception {
        assertEquals(Lab.EXIT_BAD_INPUT, refuse(published(), ProfileCommand.MANY_CORE));
        assertTrue(err.toString().contains("already in the run"), err.toString());
        assertEquals(Lab.EXIT_BAD_INPUT, Lab.run("profile", "--threads", "0", "--results", dir.toString()));
        assertEquals(Lab.EXIT_BAD_INPUT, Lab.run("profile", "--rounds", "0", "--results", dir.toString()));
    }

    @Test
    void everyPublishedProfileReadsAndPricesEveryKind() throws Exception {
        for (String name : ProfileCommand.published()) {
            try (var in = ProfileCommand.class.getResourceAsStream("/lab/profile/published/" + name)) {
                assertNotNull(in, name);
                Path f = dir.resolve(name);
                Files.write(f, in.readAllBytes());
                CostProfile p = CostProfile.read(f, ProfileSweep.PROBES.keySet());
                assertTrue(p.published() && !p.sources().isEmpty(), name);
                assertEquals(name.replace(".json", ""), p.name(), "a published profile's name is its file's");
            }
        }
    }

    @Test
    void eachContentionFixFindsItsInputsInTheCommittedRuns() throws Exception {
        Path results = Path.of("../results");
        assertEquals(4, Fixes.scales().size(), "dm-css-ref, zram-init-lock, part-acct, thin-bufio-lock");
        ProfileCommand.copyInputs(dir, results);
        for (var f : Fixes.scales()) {
            Path in = dir.resolve("inputs").resolve(f.fixId());
            for (String file : new String[] {"counts.json", "calibration.json", "source.json", "kernel.json"}) {
                assertTrue(Files.exists(in.resolve(file)), f.fixId() + ": " + file);
            }
            assertTrue(new ObjectMapper().readTree(in.resolve("source.json").toFile()).path("headline").has("metric"), f.fixId());
            // the kernel's own figure of every contention fix is the lab kernel's A/B's
            assertTrue(new ObjectMapper().readTree(in.resolve("kernel.json").toFile()).path("headline").path("kernel").isNumber(), f.fixId());
        }
    }
}
