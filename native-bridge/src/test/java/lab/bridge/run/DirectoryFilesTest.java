package lab.bridge.run;

import static lab.bridge.run.BridgeTesting.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import lab.jobspec.report.FioJob;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** directory= and filesize= on the bridge: the lab makes the files it needs, only in the folder named. */
class DirectoryFilesTest {

    private Path dir;
    private Path data;

    @BeforeEach
    void folders() throws Exception {
        dir = BridgeTesting.scratch("dirfiles");
        data = dir.resolve("data");
        if (Files.exists(data)) {
            try (Stream<Path> s = Files.walk(data)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(data);
    }

    private BridgeTesting.Outcome runJob(String text) throws Exception {
        return run(dir, text);
    }

    /** fio's $jobname.$jobnum.$filenum: one file per clone, laid out to filesize. */
    @Test
    void eachCloneGetsItsOwnFileOfFilesize() throws Exception {
        BridgeTesting.Outcome o = runJob("[w]\nioengine=psync\nrw=write\nbs=4k\ndirectory=" + data
                + "\nfilesize=256k\nnrfiles=1\nnumjobs=2\n");
        assertEquals(256 << 10, Files.size(data.resolve("w.0.0")));
        assertEquals(256 << 10, Files.size(data.resolve("w.1.0")));
        List<FioJob> js = o.report().jobs();
        assertEquals(2, js.size());
        assertEquals(data.resolve("w.0.0").toString(), js.get(0).lab().device());
        assertEquals(data.resolve("w.1.0").toString(), js.get(1).lab().device());
        assertEquals(64, js.get(0).write().totalIos());
        assertEquals(64, js.get(1).write().totalIos());
        assertTrue(o.notes().contains("lab: made " + data.resolve("w.0.0") + " (262144 bytes, sparse)"), o.notes());
    }

    /** One named file in the directory: made by the write job, read back verified by the stonewalled read job. */
    @Test
    void aNamedFileIsMadeOnceAndSharedByLaterJobs() throws Exception {
        BridgeTesting.Outcome o = runJob("[global]\nioengine=psync\nbs=4k\ndirectory=" + data
                + "\nfilename=shared.img\nfilesize=512k\nsize=256k\nverify=md5\n[w]\nrw=randwrite\n[r]\nstonewall\nrw=read\n");
        assertEquals(512 << 10, Files.size(data.resolve("shared.img")), "laid out to filesize, not size");
        FioJob r = o.report().jobs().get(1);
        assertEquals(64, r.read().totalIos());
        assertEquals(0L, r.lab().verifyMismatches(), o.notes());
        assertEquals(0L, r.lab().verifyUnwritten(), o.notes());
        assertEquals(1, o.notes().split("lab: made ", -1).length - 1, o.notes());
    }

    @Test
    void aMissingDirectoryIsRefusedAndNothingIsMade() throws Exception {
        Path none = data.resolve("none");
        BridgeSetupException e = assertThrows(BridgeSetupException.class, () -> runJob("[ok]\nrw=write\ndirectory="
                + data + "\nsize=64k\n[bad]\nrw=write\ndirectory=" + none + "\nsize=64k\n"));
        assertTrue(e.getMessage().contains("directory " + none + " does not exist"), e.getMessage());
        assertFalse(Files.exists(data.resolve("ok.0.0")), "the good job's file was made before the refusal");
    }

    /** Without directory= a missing file is still refused: the lab makes files only where told to. */
    @Test
    void aMissingFileWithoutDirectoryIsRefused() {
        BridgeSetupException e = assertThrows(BridgeSetupException.class, () -> runJob("[w]\nrw=write\nsize=64k\n"
                + "filename=" + data.resolve("absent.img") + "\n"));
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
        assertFalse(Files.exists(data.resolve("absent.img")));
    }
}
