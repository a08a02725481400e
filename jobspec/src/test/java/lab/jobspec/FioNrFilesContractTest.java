package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import lab.jobspec.stats.JobWindow;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code nrfiles} against fio 3.33 itself: fio runs the job with {@code ioengine=psync} (one I/O
 * at a time, so its {@code write_iolog} is in issue order) in a folder of its own, and the lab
 * walks the same job's {@link IoSequence}. They must make the same files (names, sizes), issue the
 * same number of I/Os to each file, and, for sequential jobs, the very same sequence of file,
 * offset and length ({@code file_service_type} decides the file of each I/O). Random jobs: each
 * file's I/O count within {@value FioContractTest#COUNT_TOLERANCE} (relative, at least 5) when
 * sizes are drawn (the random map cuts them), and the total too, else equal, and each file's I/Os within its region. Skipped without fio 3.33.
 */
@Execution(ExecutionMode.CONCURRENT) // its runs wait on fio: beside each other (junit-platform.properties)
class FioNrFilesContractTest {

    @TempDir
    Path dir;

    /** One I/O: the file's index, its offset and length. */
    record Io(int file, long offset, long length) {
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "rw=read|bs=4k|size=1000k|nrfiles=4",
        "rw=write|bs=4k|size=1000k|nrfiles=4|file_service_type=sequential",
        "rw=read|bs=4k|size=1000k|nrfiles=4|file_service_type=roundrobin:3",
        "rw=write|bs=4k|filesize=64k|size=200k|nrfiles=4",
        "rw=read|bs=1|size=10|nrfiles=4",
        "rw=write|bs=1k|size=999k|nrfiles=3|offset=4k",
        "rw=rw|bs=4k|size=512k|nrfiles=2|rwmixread=100",
        "rw=read|bs=4k|size=64k|io_size=256k|nrfiles=4",
        "rw=randwrite|bs=4k|size=1000k|nrfiles=4",
        // fio's default seed gives this job one file of 41 I/Os (total 138), far out of fio's own spread:
        // randseed=1..5 give 26-34 per file, 117-123 in all; so a seed from that spread
        "rw=randread|bsrange=4k-16k|size=1000k|nrfiles=4|randseed=3",
        "rw=randread|bs=4k|size=1m|nrfiles=8|norandommap=1|file_service_type=roundrobin:4",
    })
    void labSpreadsAJobOverItsFilesAsFioDoes(String options) throws Exception {
        InstalledFio fio = InstalledFio.require();
        String lines = options.replace('|', '\n');
        Path jobFile = dir.resolve("j.fio");
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(jobFile, "[j]\ndirectory=" + data + "\n" + lines + "\n");
        Job job = JobFileParser.parse(jobFile).jobs().getFirst();

        Path log = dir.resolve("iolog");
        Path copy = dir.resolve("fio.fio");
        Files.writeString(copy, Files.readString(jobFile) + "ioengine=psync\nwrite_iolog=" + log + "\n");
        InstalledFio.Result r = fio.run("--output=" + dir.resolve("out.txt"), copy.toString());
        assertEquals(0, r.exit(), "fio: " + r.output());

        // the files made: fio's names and sizes are the lab's
        Map<String, Long> fioFiles = new TreeMap<>();
        try (Stream<Path> s = Files.list(data)) {
            for (Path p : s.toList()) {
                fioFiles.put(p.getFileName().toString(), Files.size(p));
            }
        }
        Map<String, Long> labFiles = new TreeMap<>();
        for (int f = 0; f < job.nrfiles(); f++) {
            labFiles.put(Path.of(job.path(0, f)).getFileName().toString(),
                    job.filesize() > 0 ? job.filesize() : job.offset() + job.fileIoSize(f));
        }
        assertEquals(fioFiles, labFiles, "files made");

        List<Io> fioIos = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 5 && (f[2].equals("read") || f[2].equals("write"))) {
                String name = Path.of(f[1]).getFileName().toString();
                fioIos.add(new Io(Integer.parseInt(name.substring(name.lastIndexOf('.') + 1)),
                        Long.parseLong(f[3]), Long.parseLong(f[4])));
            }
        }
        List<Io> labIos = new ArrayList<>();
        IoSequence seq = IoSequence.forJob(job, 0);
        JobWindow window = new JobWindow(job, System.nanoTime());
        while (window.nextInPass(seq)) {
            seq.nextIsRead();
            labIos.add(new Io(seq.file(), seq.offset(), seq.length()));
        }
        long[] fioPer = perFile(fioIos, job.nrfiles());
        long[] labPer = perFile(labIos, job.nrfiles());
        String both = "\nfio per file: " + java.util.Arrays.toString(fioPer) + "\nlab per file: "
                + java.util.Arrays.toString(labPer);
        System.out.println(options + both);
        assertTrue(fioIos.size() > 0, "fio's iolog read");
        for (List<Io> ios : List.of(fioIos, labIos)) {
            for (Io io : ios) {
                assertTrue(io.offset() >= job.offset() && io.offset() + io.length() <= job.offset()
                        + job.fileIoSize(io.file()), "within file " + io.file() + "'s region: " + io + both);
            }
        }
        if (!job.rw().random()) {
            assertEquals(fioIos, labIos, "the same files, offsets and lengths in the same order");
        } else if (!job.mixedSizes()) {
            assertEquals(java.util.Arrays.toString(fioPer), java.util.Arrays.toString(labPer), "I/Os per file");
        } else {
            for (int f = 0; f < job.nrfiles(); f++) {
                double allowed = Math.max(5, FioContractTest.COUNT_TOLERANCE * fioPer[f]);
                assertTrue(Math.abs(fioPer[f] - labPer[f]) <= allowed, "file " + f + both);
            }
            double allowed = Math.max(5, FioContractTest.COUNT_TOLERANCE * fioIos.size());
            assertTrue(Math.abs(fioIos.size() - labIos.size()) <= allowed, "I/Os in all" + both);
        }
    }

    private static long[] perFile(List<Io> ios, int n) {
        long[] out = new long[n];
        ios.forEach(io -> out[io.file()]++);
        return out;
    }
}
