package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
        assertRefused("[j]\nsize=1m\nnrfiles=4\n", 3, "nrfiles", "needs directory=");
        assertRefused("[j]\nsize=1m\ndirectory=/d\nfilename=x\nnrfiles=4\n", 5, "nrfiles", "with filename");
        assertRefused("[j]\nsize=1m\nnrfiles=4\ndirectory=/d\nfilename=x\n", 5, "filename", "with filename");
        assertRefused("[j]\ndirectory=/d\nnrfiles=4\nsize=12k\n", 4, "size", "less than the smallest block size");
        assertRefused("[j]\ndirectory=/d\nsize=1m\nnrfiles=2000\n", 4, "nrfiles", "out of range");
        assertRefused("[j]\nsize=1m\nfile_service_type=random\n", 3, "file_service_type", "not supported by the lab");
        assertRefused("[j]\nsize=1m\nfile_service_type=zipf:1.2\n", 3, "file_service_type", "not supported");
        assertRefused("[j]\nsize=1m\nfile_service_type=roundrobin:0\n", 3, "file_service_type", "positive count");
        assertRefused("[j]\nsize=1m\nfile_service_type=rr\n", 3, "file_service_type", "not one of roundrobin");
        assertRefused("[j]\nsize=1m\nnr_files=0\n", 3, "nr_files", "out of range");
        assertRefused("[j]\nsize=1m\ndirectory=/a:/b\n", 3, "directory", "several directories");
        assertRefused("[j]\nbs=8k\nfilesize=4k\n", 3, "filesize", "smaller than bs");
        assertRefused("[j]\ndirectory=/d\nnrfiles=2\n", 3, "nrfiles", "no size or filesize");
    }

    /** The report's job options echo the options of this families where they are not fio's defaults. */
    @Test
    void theReportEchoesPacingPlacementAndWalkOptions() throws Exception {
        var m = FioOptions.of(job("[j]\nsize=1m\nrw=read:-8k\nloops=3\nrate=1m\nthinktime=10ms\nthinktime_blocks=4\n"
                + "startdelay=1-2\nflow=2\nexitall\nexit_what=all\nnuma_mem_policy=bind:0\nprioclass=3\n"
                + "ss=iops:10%\nss_dur=5\n"));
        assertEquals("read:-8192", m.get("rw"));
        assertEquals("3", m.get("loops"));
        assertEquals("1048576", m.get("rate"));
        assertEquals("10ms", m.get("thinktime"));
        assertEquals("4", m.get("thinktime_blocks"));
        assertEquals("1-2", m.get("startdelay"));
        assertEquals("2", m.get("flow"));
        assertEquals("1", m.get("exitall"));
        assertEquals("all", m.get("exit_what"));
        assertEquals("bind:0", m.get("numa_mem_policy"));
        assertEquals("3", m.get("prioclass"));
        assertEquals("iops:10.0%", m.get("steadystate"));
        assertEquals("5", m.get("steadystate_duration"));
        assertNull(FioOptions.of(job("[j]\nfilename=/dev/x\n")).get("size"), "a size-less job's size is its target's");
    }

    /** fio's setup_files(): a job with neither size nor filesize covers its target from offset to the end. */
    @Test
    void aSizeLessJobTakesItsTargetsSize() throws Exception {
        Job j = job("[j]\nbs=4k\noffset=8k\nfilename=/dev/x\n");
        assertTrue(j.sizeOfTarget());
        Job sized = j.withTargetSize(1 << 20);
        assertFalse(sized.sizeOfTarget());
        assertEquals((1 << 20) - 8192, sized.size());
        assertEquals(sized, sized.withTargetSize(4096), "a job with its size keeps it");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> j.withTargetSize(10_000));
        assertTrue(e.getMessage().contains("less than one 4096-byte block"), e.getMessage());
        assertFalse(job("[j]\nsize=1m\n").sizeOfTarget());
        assertFalse(job("[j]\nfilesize=1m\n").sizeOfTarget());
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

    /** fio's setup_files(): size / nrfiles each, the first files one smallest block more; size their sum. */
    @Test
    void nrfilesSpreadsSizeOverTheFiles() throws Exception {
        Job even = job("[w]\nsize=1m\ndirectory=/data\nnrfiles=4\nnumjobs=2\n");
        assertEquals(4, even.nrfiles());
        assertEquals(1L << 20, even.size());
        for (int f = 0; f < 4; f++) {
            assertEquals(256L << 10, even.fileIoSize(f));
        }
        assertEquals("/data/w.1.3", even.path(1, 3));
        assertEquals("/data/w.0.0", even.path(0, 0));
        Job odd = job("[w]\nbs=1\nsize=10\ndirectory=/d\nnr_files=4\n");
        assertEquals(10, odd.size());
        assertEquals(java.util.List.of(3L, 3L, 2L, 2L), java.util.stream.IntStream.range(0, 4)
                .mapToObj(odd::fileIoSize).toList());
        // a remainder smaller than the smallest block is dropped: size becomes the files' sum
        Job cut = job("[w]\nbs=4k\nsize=1000000\ndirectory=/d\nnrfiles=3\n");
        assertEquals(333333, cut.fileIoSize(0));
        assertEquals(999999, cut.size());
        // filesize: every file is filesize - offset; size is capped at their sum
        Job fixed = job("[w]\nfilesize=64k\nsize=1m\noffset=4k\ndirectory=/d\nnrfiles=4\n");
        assertEquals(4 * (60L << 10), fixed.size());
        assertEquals(60L << 10, fixed.fileIoSize(3));
        assertEquals(100L << 10, job("[w]\nfilesize=64k\nsize=100k\ndirectory=/d\nnrfiles=4\n").size());
        assertEquals(1, job("[w]\nsize=1m\n").nrfiles());
        assertEquals(1L << 20, job("[w]\nsize=1m\n").fileIoSize(0));
    }

    @Test
    void fileServiceTypeAndNrfilesAreEchoedWhenSet() throws Exception {
        Job rr = job("[w]\nsize=1m\ndirectory=/d\nnrfiles=4\nfile_service_type=roundrobin:8\n");
        assertEquals(new Job.FileService(false, 8), rr.fileService());
        assertEquals("roundrobin:8", FioOptions.of(rr).get("file_service_type"));
        assertEquals("4", FioOptions.of(rr).get("nrfiles"));
        Job seq = job("[w]\nsize=1m\ndirectory=/d\nnrfiles=4\nfile_service_type=sequential\n");
        assertEquals(new Job.FileService(true, 1), seq.fileService());
        assertEquals("sequential", FioOptions.of(seq).get("file_service_type"));
        Job plain = job("[w]\nsize=1m\n");
        assertEquals(Job.FileService.ROUNDROBIN, plain.fileService());
        assertNull(FioOptions.of(plain).get("nrfiles"));
        assertNull(FioOptions.of(plain).get("file_service_type"));
    }

    @Test
    void ioschedulerIsANameEchoedWhenSet() throws Exception {
        assertEquals("mq-deadline", job("[j]\nsize=1m\nioscheduler=mq-deadline\n").ioscheduler());
        assertNull(job("[j]\nsize=1m\n").ioscheduler());
        assertEquals("bfq", FioOptions.of(job("[j]\nsize=1m\nioscheduler=bfq\n")).get("ioscheduler"));
        assertRefused("[j]\nsize=1m\nioscheduler=../../x\n", 3, "ioscheduler", "not a scheduler name");
    }
}
