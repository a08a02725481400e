package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static lab.jobspec.TestJobs.assertRefused;

import java.nio.file.Path;
import lab.jobspec.report.FioOptions;
import org.junit.jupiter.api.Test;

/** directory, filesize and nrfiles: fio's sizes and names, and the lab's limits. */
class FilesTest {

    private static Job job(String text) throws JobSpecException {
        return JobFileParser.parse(Path.of("f.fio"), text).jobs().getFirst();
    }

    /** fio's setup_files(): the file's io_size is filesize - offset, and size is capped at it. */
    @Test
    void filesizeGivesAndCapsTheSize() throws Exception {
        assertEquals(1L << 20, job("[j]\nfilesize=1m\n").size());
        assertEquals((1L << 20) - 4096, job("[j]\nfilesize=1m\noffset=4k\n").size());
        assertEquals(1L << 20, job("[j]\nfilesize=1m\nsize=8m\n").size());
        assertEquals(64L << 10, job("[j]\nfilesize=1m\nsize=64k\n").size());
        assertEquals(1L << 20, job("[j]\nfilesize=1m\n").filesize());
        assertEquals(0, job("[j]\nsize=1m\n").filesize());
    }

    @Test
    void refusalsNameTheLineAndKey() {
        assertRefused("[j]\nfilesize=1m\noffset=1m\n", 3, "offset", "at or beyond filesize");
        assertRefused("[j]\nsize=1m\nnrfiles=4\n", 3, "nrfiles", "one file per clone");
        assertRefused("[j]\nsize=1m\nnr_files=0\n", 3, "nr_files", "out of range");
        assertRefused("[j]\nsize=1m\ndirectory=/a:/b\n", 3, "directory", "several directories");
        assertRefused("[j]\nbs=8k\nfilesize=4k\n", 3, "filesize", "smaller than bs");
        assertRefused("[j]\nbs=4k\n", 1, "size", "no size or filesize");
    }

    @Test
    void pathsFollowFiosDefaultFilenameFormat() throws Exception {
        Job gen = job("[w]\nsize=1m\ndirectory=/data\nnrfiles=1\nnumjobs=2\n");
        assertTrue(gen.filePerClone());
        assertEquals("/data/w.0.0", gen.path(0));
        assertEquals("/data/w.1.0", gen.path(1));
        Job named = job("[w]\nsize=1m\ndirectory=/data\nfilename=f.img\nnumjobs=2\n");
        assertFalse(named.filePerClone());
        assertEquals("/data/f.img", named.path(1));
        assertEquals("/dev/zram0", job("[w]\nsize=1m\ndirectory=/data\nfilename=/dev/zram0\n").path(0));
        assertEquals("x.img", job("[w]\nsize=1m\nfilename=x.img\n").path(0));
        assertNull(job("[w]\nsize=1m\n").path(0));
        assertEquals("/data", FioOptions.of(named).get("directory"));
        assertEquals("1048576", FioOptions.of(job("[w]\nfilesize=1m\n")).get("filesize"));
    }

    @Test
    void ioschedulerIsANameEchoedWhenSet() throws Exception {
        assertEquals("mq-deadline", job("[j]\nsize=1m\nioscheduler=mq-deadline\n").ioscheduler());
        assertNull(job("[j]\nsize=1m\n").ioscheduler());
        assertEquals("bfq", FioOptions.of(job("[j]\nsize=1m\nioscheduler=bfq\n")).get("ioscheduler"));
        assertRefused("[j]\nsize=1m\nioscheduler=../../x\n", 3, "ioscheduler", "not a scheduler name");
    }
}
