package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code nrfiles} on the bridge: each clone makes and drives its files in the job's
 * {@code directory}, every engine sending each I/O to its own file's descriptor, as fio 3.33 does.
 */
class NrFilesTest {

    private static Path fresh(String name) throws Exception {
        return BridgeTesting.freshScratch(name);
    }

    /** File name to size, the job files left out. */
    private static Map<String, Long> files(Path dir) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(p -> !p.toString().endsWith(".fio")).toList()) {
                out.put(p.getFileName().toString(), Files.size(p));
            }
        }
        return out;
    }

    /** 4k blocks of {@code file} that are not all zero (the lab writes no zero blocks: its buffers are scrambled). */
    private static int writtenBlocks(Path file) throws Exception {
        byte[] all = Files.readAllBytes(file);
        int n = 0;
        for (int b = 0; b + 4096 <= all.length; b += 4096) {
            for (int i = b; i < b + 4096; i++) {
                if (all[i] != 0) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    /**
     * Writes 4 files per clone, then reads them all back verified in a stonewalled job of the same
     * name: no block unwritten (an I/O sent to another file's descriptor would leave its own
     * file's block unwritten) and none mismatched.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"psync", "sync", "pvsync", "io_uring", "io_uring|registerfiles=1|fixedbufs=1",
        "libaio", "psync|file_service_type=sequential", "libaio|file_service_type=roundrobin:5"})
    void everyEngineWritesEachFileItsShare(String engine) throws Exception {
        if (engine.startsWith("io_uring")) {
            BridgeTesting.assumeUring();
        }
        Path dir = fresh("nrfiles-" + engine.replaceAll("[^a-z0-9]", "_"));
        String common = "ioengine=" + engine.replace('|', '\n') + "\nbs=4k\nsize=1000k\nnrfiles=4\nnumjobs=2\n"
                + "directory=" + dir + "\nverify=crc32c\niodepth=8\n";
        BridgeTesting.Outcome o = run(dir, "[global]\n" + common + "[w]\nrw=randwrite\n[r]\nname=w\nstonewall\n"
                + "rw=read\n");
        Map<String, Long> made = files(dir);
        assertEquals(8, made.size(), made.toString());
        for (int c = 0; c < 2; c++) {
            for (int f = 0; f < 4; f++) {
                String name = "w." + c + "." + f;
                assertEquals(256000L, made.get(name), name + " in " + made);
                assertEquals(62, writtenBlocks(dir.resolve(name)), name + ": each of its 62 whole blocks written");
            }
        }
        List<FioJob> js = o.report().jobs();
        assertEquals(4, js.size());
        for (FioJob j : js.subList(0, 2)) {
            assertEquals(248, j.write().totalIos(), "4 files of 62 blocks: " + o.notes());
        }
        for (FioJob j : js.subList(2, 4)) {
            assertEquals(248, j.read().totalIos(), o.notes());
            assertEquals(0L, j.lab().verifyUnwritten(), o.notes());
            assertEquals(0L, j.lab().verifyMismatches(), o.notes());
        }
        assertTrue(js.getFirst().lab().notes().stream().anyMatch(n -> n.contains("nrfiles=4")),
                js.getFirst().lab().notes().toString());
    }

    /** The same job file through fio 3.33 and the bridge: the same files made, and the same total_ios per entry. */
    @Test
    void filesAndTotalIosAreFios() throws Exception {
        String jobs = """
                [global]
                ioengine=psync
                bs=4k
                size=1000k
                nrfiles=4
                [w]
                rw=randwrite
                numjobs=2
                [s]
                rw=write
                offset=8k
                filesize=64k
                size=200k
                file_service_type=sequential
                [r]
                stonewall
                rw=randread
                bsrange=4k-16k
                norandommap=1
                nrfiles=3
                """;
        Path fioDir = fresh("nrfiles-cmp-fio");
        Path jobFile = fioDir.resolve("n.fio");
        Files.writeString(jobFile, jobs.replace("[global]\n", "[global]\ndirectory=" + fioDir + "\n"));
        List<String> fioEntries = new ArrayList<>();
        for (JsonNode j : BridgeTesting.fioJobs(jobFile)) {
            fioEntries.add(j.get("jobname").asText() + " read " + j.get("read").get("total_ios").asLong() + " write "
                    + j.get("write").get("total_ios").asLong());
        }

        Path labDir = fresh("nrfiles-cmp-lab");
        BridgeTesting.Outcome o = run(labDir, jobs.replace("[global]\n", "[global]\ndirectory=" + labDir + "\n"));
        List<String> labEntries = new ArrayList<>();
        for (FioJob j : o.report().jobs()) {
            labEntries.add(j.jobname() + " read " + j.read().totalIos() + " write " + j.write().totalIos());
        }
        // w: 4 files of 256000 bytes, 62 blocks each; s: filesize 64k from offset 8k, 14 blocks each,
        // size=200k ends it after 50; r: norandommap, 1000k over 3 files of 341333 bytes, 83 blocks each
        assertEquals(List.of("w read 0 write 248", "w read 0 write 248", "s read 0 write 50",
                "r read " + fioEntries.get(3).split(" ")[2] + " write 0"), fioEntries, "fio itself");
        assertEquals(fioEntries.subList(0, 3), labEntries.subList(0, 3));
        long fioR = Long.parseLong(fioEntries.get(3).split(" ")[2]);
        long labR = Long.parseLong(labEntries.get(3).split(" ")[2]);
        assertTrue(Math.abs(fioR - labR) <= Math.max(5, 0.15 * fioR), "r (random sizes): fio " + fioR + ", lab " + labR);
        Map<String, Long> fioFiles = files(fioDir);
        assertEquals(15, fioFiles.size(), fioFiles.toString());
        assertEquals(fioFiles, files(labDir));
    }

    @Test
    void aFilenameOverrideIsRefusedForSeveralFiles() throws Exception {
        Path dir = fresh("nrfiles-override");
        List<lab.jobspec.Job> js = BridgeTesting.jobs(dir, "o.fio", "[w]\nrw=write\nsize=64k\nnrfiles=2\ndirectory="
                + dir + "\n");
        BridgeSetupException e = assertThrows(BridgeSetupException.class, () -> run(js,
                new BridgeRun.Options(dir.resolve("x").toString(), false, DeviceOwnership.registry(),
                        EngineFactory.REAL)));
        assertTrue(e.getMessage().contains("nrfiles=2"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("w.0.0")));
    }
}
