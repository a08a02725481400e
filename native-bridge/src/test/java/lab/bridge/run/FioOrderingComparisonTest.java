package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.api.Test;

/**
 * The same job file run by fio 3.33 (where it is installed) and by the bridge, each in a folder
 * of its own: the same entries with the same groupid and bytes written, and the same files made
 * (stonewall, new_group, wait_for, directory, filesize capping size, fio's file names).
 */
class FioOrderingComparisonTest {

    private static final String JOBS = """
            [global]
            ioengine=psync
            bs=4k
            filesize=256k
            offset=4k
            size=8m
            nrfiles=1
            [a]
            rw=write
            [b]
            stonewall
            rw=write
            numjobs=2
            [c]
            new_group
            rw=write
            [d]
            wait_for=a
            rw=write
            """;

    private static List<String> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".fio")).sorted().toList();
        }
    }

    @Test
    void groupsBytesAndFilesAreFios() throws Exception {
        Path fioDir = BridgeTesting.freshScratch("cmp-fio");
        Path jobFile = fioDir.resolve("g.fio");
        Files.writeString(jobFile, JOBS.replace("[global]\n", "[global]\ndirectory=" + fioDir + "\n"));
        List<String> fioEntries = new ArrayList<>();
        for (JsonNode j : BridgeTesting.fioJobs(jobFile)) {
            fioEntries.add(j.get("jobname").asText() + " group " + j.get("groupid").asInt() + " wrote "
                    + j.get("write").get("io_bytes").asLong());
        }

        Path labDir = BridgeTesting.freshScratch("cmp-lab");
        BridgeTesting.Outcome o = run(labDir, JOBS.replace("[global]\n", "[global]\ndirectory=" + labDir + "\n"));
        List<String> labEntries = new ArrayList<>();
        for (FioJob j : o.report().jobs()) {
            labEntries.add(j.jobname() + " group " + j.groupid() + " wrote " + j.write().ioBytes());
        }
        assertEquals(List.of("a group 0 wrote 258048", "b group 1 wrote 258048", "b group 1 wrote 258048",
                "c group 2 wrote 258048", "d group 2 wrote 258048"), fioEntries, "fio itself");
        assertEquals(fioEntries, labEntries);
        assertEquals(files(fioDir), files(labDir));
        for (String f : files(labDir)) {
            assertEquals(Files.size(fioDir.resolve(f)), Files.size(labDir.resolve(f)), f);
        }
    }
}
