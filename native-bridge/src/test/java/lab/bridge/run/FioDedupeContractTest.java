package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import lab.bridge.engine.BridgeEngines;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * fio 3.33's deduplicable buffers ({@code dedupe_percentage}, {@code dedupe_mode},
 * {@code dedupe_working_set_percentage}, {@code dedupe_global}) against the bridge's
 * ({@link lab.jobspec.BufferPattern}): the same sequential write of 4 MiB in 4k blocks, by fio
 * (where fio 3.33 is installed) and by the bridge, each on a fresh file; compared is how many
 * distinct 4k blocks the file holds afterwards: about (100 - P)% of 1024 with
 * {@code repeat} and {@code working_set} (whose set is among the unique pages), 1 with 100%.
 * The draws differ (fio's generator and the lab's), so within {@value #SPREAD} blocks, four
 * standard deviations of 1024 draws at 50%.
 */
class FioDedupeContractTest {
    static final int SPREAD = 64;

    private static int distinct(Path dir, String text, boolean fio, String... files) throws Exception {
        for (String f : files) { // a fresh empty file: the lab makes files only in a folder the job names
            Files.deleteIfExists(dir.resolve(f));
            Files.createFile(dir.resolve(f));
        }
        if (fio) {
            Path jobFile = dir.resolve("job.fio");
            Files.writeString(jobFile, text);
            BridgeTesting.fioJobs(jobFile);
        } else {
            BridgeTesting.run(jobs(dir, "lab.fio", text), new BridgeRun.Options(null, false,
                    DeviceOwnership.registry(), BridgeEngines::open));
        }
        Set<String> blocks = new HashSet<>();
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        for (String f : files) {
            byte[] all = Files.readAllBytes(dir.resolve(f));
            for (int at = 0; at < all.length; at += 4096) {
                md5.update(all, at, 4096);
                blocks.add(HexFormat.of().formatHex(md5.digest()));
            }
        }
        return blocks.size();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "dedupe_percentage=50 | 512",
            "dedupe_percentage=50 dedupe_mode=working_set dedupe_working_set_percentage=10 | 512",
            "dedupe_percentage=25 buffer_compress_percentage=50 | 768",
            "dedupe_percentage=100 | 1"})
    void distinctBlocksAsFios(String options, int expected) throws Exception {
        Path dir = BridgeTesting.freshScratch("dedupe");
        String text = "[d]\nfilename=" + dir.resolve("data") + "\nsize=4m\nbs=4k\nrw=write\n"
                + options.replace(' ', '\n') + "\n";
        int fio = distinct(dir, text, true, "data");
        int lab = distinct(dir, text, false, "data");
        System.out.println(options + ": distinct 4k blocks of 1024: fio " + fio + ", lab " + lab);
        int spread = expected == 1 ? 0 : SPREAD;
        assertEquals(expected, fio, spread, "fio");
        assertEquals(expected, lab, spread, "lab");
    }

    /**
     * dedupe_global (fio's examples/dedupe-global.fio in small): each job's working set of 102
     * pages is its own first 51 buffers and then the other job's first 51 (fio's
     * init_dedupe_working_set_seeds()), which that job writes as unique ones. So a file holds
     * about 512 unique blocks and the other's 51 (563 distinct), and the two together no more than
     * their unique ones (about 1024), in both within {@value #SPREAD}. A set of pages of its own,
     * shared by the jobs but written by neither, gives 614 and 1126.
     */
    @Test
    void dedupeGlobalSharesPagesAcrossJobs() throws Exception {
        Path dir = BridgeTesting.freshScratch("dedupe-global");
        String text = "[global]\nsize=4m\nbs=4k\nrw=write\ndedupe_mode=working_set\ndedupe_global=1\n"
                + "dedupe_percentage=50\ndedupe_working_set_percentage=10\n[a]\nfilename=" + dir.resolve("a")
                + "\n[b]\nfilename=" + dir.resolve("b") + "\n";
        int[][] seen = new int[2][];
        for (boolean fio : new boolean[] {true, false}) {
            int both = distinct(dir, text, fio, "a", "b");
            int a = distinct(dir, text, fio, "a");
            System.out.println((fio ? "fio" : "lab") + ": distinct 4k blocks of a and b " + both + ", of a " + a);
            assertTrue(both < 2 * a - 50, (fio ? "fio" : "lab") + ": b repeats a's pages: " + both + " vs 2 x " + a);
            seen[fio ? 0 : 1] = new int[] {both, a};
        }
        assertEquals(seen[0][0], seen[1][0], SPREAD, "distinct blocks of a and b: fio's and the lab's");
        assertEquals(seen[0][1], seen[1][1], SPREAD, "distinct blocks of a: fio's and the lab's");
    }
}
