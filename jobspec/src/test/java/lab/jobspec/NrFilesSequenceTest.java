package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link IoSequence} over several files: fio's file_service_type and per-file offset state. */
class NrFilesSequenceTest {
    @TempDir
    Path dir;

    private Job job(String lines) throws Exception {
        return TestJobs.job(dir, "directory=/d\n" + lines);
    }

    /** Every I/O of the job, as {file, offset, length}, until {@link IoSequence#hasNext()} says no. */
    private static List<long[]> all(Job j) {
        IoSequence s = IoSequence.forJob(j, 0);
        List<long[]> out = new ArrayList<>();
        while (s.hasNext()) {
            s.nextIsRead();
            out.add(new long[] {s.file(), s.offset(), s.length()});
            assertTrue(out.size() < 1_000_000, "runs away");
        }
        return out;
    }

    private static int[] files(List<long[]> ios) {
        return ios.stream().mapToInt(x -> (int) x[0]).toArray();
    }

    private static long[] offsets(List<long[]> ios) {
        return ios.stream().mapToLong(x -> x[1]).toArray();
    }

    @Test
    void roundrobinTakesTheNextFileAfterEveryIo() throws Exception {
        List<long[]> ios = all(job("rw=read\nbs=4k\nsize=32k\nnrfiles=4"));
        assertArrayEquals(new int[] {0, 1, 2, 3, 0, 1, 2, 3}, files(ios));
        assertArrayEquals(new long[] {0, 0, 0, 0, 4096, 4096, 4096, 4096}, offsets(ios));
    }

    @Test
    void roundrobinBatchAndSequentialStayOnAFile() throws Exception {
        int[] expected = {0, 0, 1, 1, 2, 2, 3, 3};
        assertArrayEquals(expected, files(all(job("rw=read\nbs=4k\nsize=32k\nnrfiles=4\nfile_service_type=sequential"))));
        assertArrayEquals(expected, files(all(job("rw=read\nbs=4k\nsize=32k\nnrfiles=4\nfile_service_type=roundrobin:2"))));
        List<long[]> rr3 = all(job("rw=read\nbs=4k\nsize=64k\nnrfiles=2\nfile_service_type=roundrobin:3"));
        assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1}, files(rr3));
    }

    /** fio's set_io_u_file(): a file with nothing left is done, and the others go on alone. */
    @Test
    void aDoneFileIsSkipped() throws Exception {
        List<long[]> ios = all(job("rw=read\nbs=1\nsize=10\nnrfiles=4"));
        assertArrayEquals(new int[] {0, 1, 2, 3, 0, 1, 2, 3, 0, 1}, files(ios));
        Job fixed = job("rw=write\nbs=4k\nfilesize=16k\nsize=24k\nnrfiles=4");
        List<long[]> w = all(fixed);
        assertEquals(6, w.size(), "size ends the job before the files do");
        assertArrayEquals(new int[] {0, 1, 2, 3, 0, 1}, files(w));
    }

    @Test
    void eachFileKeepsItsOwnRandomOrderAndMap() throws Exception {
        int blocks = 64;
        for (String extra : new String[] {"", "\nbsrange=4k-16k", "\nnorandommap=1", "\nrandom_generator=lfsr"}) {
            Job j = job("rw=randread\nbs=4k\nsize=" + 4 * blocks * 4 + "k\nnrfiles=4" + extra);
            List<long[]> ios = all(j);
            long[][] order = new long[4][];
            long[] bytes = new long[4];
            for (int f = 0; f < 4; f++) {
                final int file = f;
                order[f] = ios.stream().filter(x -> x[0] == file).mapToLong(x -> x[1]).toArray();
                bytes[f] = ios.stream().filter(x -> x[0] == file).mapToLong(x -> x[2]).sum();
                for (long off : order[f]) {
                    assertTrue(off >= 0 && off < blocks * 4096L, "within the file's region: " + off);
                }
            }
            assertEquals(4L * blocks * 4096, ios.stream().mapToLong(x -> x[2]).sum(), extra);
            if (extra.isEmpty() || extra.contains("lfsr") || extra.contains("bsrange")) {
                for (int f = 0; f < 4; f++) {
                    assertEquals(blocks * 4096L, bytes[f], "every byte of file " + f + " once" + extra);
                }
            }
            if (extra.isEmpty()) {
                for (int f = 0; f < 4; f++) {
                    assertEquals(blocks, java.util.Arrays.stream(order[f]).distinct().count(), "file " + f);
                }
                assertFalse(java.util.Arrays.equals(order[0], order[1]), "files are keyed apart");
            }
        }
    }

    @Test
    void ioSizeLoopsOverEveryFile() throws Exception {
        List<long[]> ios = all(job("rw=read\nbs=4k\nsize=32k\nio_size=64k\nnrfiles=4"));
        assertEquals(16, ios.size());
        assertArrayEquals(new long[] {0, 0, 0, 0, 4096, 4096, 4096, 4096, 0, 0, 0, 0, 4096, 4096, 4096, 4096},
                offsets(ios));
    }

    @Test
    void offsetStartsEveryFilesRegion() throws Exception {
        List<long[]> ios = all(job("rw=write\nbs=4k\noffset=8k\nsize=16k\nnrfiles=2"));
        assertArrayEquals(new int[] {0, 1, 0, 1}, files(ios));
        assertArrayEquals(new long[] {8192, 8192, 12288, 12288}, offsets(ios));
    }

    @Test
    void oneFileIsTheOneFileSequence() throws Exception {
        Job one = TestJobs.job(dir, "rw=randrw\nbsrange=4k-16k\nsize=1m");
        Job dirOne = job("rw=randrw\nbsrange=4k-16k\nsize=1m\nnrfiles=1");
        List<long[]> a = all(one);
        List<long[]> b = all(dirOne);
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertArrayEquals(a.get(i), b.get(i));
            assertEquals(0, a.get(i)[0]);
        }
        assertNotEquals(0, a.size());
    }
}
