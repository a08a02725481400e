package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spec render}: a fix's example plus overrides parses to the example's jobs with the
 * overrides applied, as if the override lines closed each job section; bad overrides are refused
 * naming their key.
 */
class JobRenderTest {
    /** The repository's examples (Surefire runs in the module folder). */
    private static final Path EXAMPLES = Path.of("..", "examples");

    @TempDir
    Path dir;

    /** {@code example} with {@code lines} appended (the last section is its one job): the expected jobs. */
    private List<Job> exampleWith(Path example, String... lines) throws Exception {
        Path f = dir.resolve("expected.fio");
        Files.writeString(f, Files.readString(example) + "\n" + String.join("\n", lines) + "\n");
        return JobFileParser.parse(f).jobs();
    }

    private static List<Job> parse(String text) throws Exception {
        return JobFileParser.parse(Path.of("rendered.fio"), text).jobs();
    }

    /** Every field but where the job was read from and, unless asked, its name. */
    private static void assertSameJobs(List<Job> expected, List<Job> actual, boolean names) throws Exception {
        assertEquals(expected.size(), actual.size());
        Set<String> ignored = names ? Set.of("source", "line") : Set.of("source", "line", "name");
        for (int i = 0; i < expected.size(); i++) {
            for (RecordComponent c : Job.class.getRecordComponents()) {
                if (!ignored.contains(c.getName())) {
                    assertEquals(c.getAccessor().invoke(expected.get(i)), c.getAccessor().invoke(actual.get(i)), c.getName());
                }
            }
        }
    }

    @Test
    void partAcctWithTheScenarioOverridesRoundTrips() throws Exception {
        Path example = EXAMPLES.resolve("part-acct.fio");
        List<String> sets = List.of("ioengine=psync", "iodepth=1", "offset=1M", "size=128M", "runtime=300ms", "numjobs=2");
        String text = JobRender.render(example, sets, List.of(), "zram-disk-j2");
        List<Job> jobs = parse(text);
        assertSameJobs(exampleWith(example, sets.toArray(String[]::new)), jobs, false);
        assertEquals("zram-disk-j2", jobs.getFirst().name());
        assertEquals(2, jobs.getFirst().numjobs());
        assertEquals(IoEngine.PSYNC, jobs.getFirst().ioengine());
        // numjobs=4 was in the example's job section: gone from it, so the override holds
        assertFalse(text.contains("numjobs=4"), text);
        assertTrue(text.startsWith("; rendered from part-acct.fio: --set ioengine=psync"), text);
        // the example without overrides is the example
        assertSameJobs(JobFileParser.parse(example).jobs(), parse(JobRender.render(example, List.of(), List.of(), null)), true);
    }

    @Test
    void unsetGivesFiosDefaultAndFlagsMayBeBare() throws Exception {
        Path example = EXAMPLES.resolve("zram-init-lock-randrw.fio");
        String text = JobRender.render(example,
                List.of("buffer_compress_percentage=50", "refill_buffers", "scramble_buffers=0", "rwmixread=50",
                        "runtime=2s", "time_based", "size=256M", "numjobs=1"),
                List.of("zero_buffers"), "randrw-compressible50-j1");
        assertSameJobs(exampleWith(example, "zero_buffers=0", "buffer_compress_percentage=50", "refill_buffers",
                "scramble_buffers=0", "rwmixread=50", "runtime=2s", "time_based", "size=256M", "numjobs=1"), parse(text), false);
        assertTrue(text.lines().skip(1).noneMatch(l -> l.contains("zero_buffers")), text);
        Job j = parse(text).getFirst();
        assertTrue(j.refillBuffers() && j.timeBased());
        assertEquals(50, j.bufferCompressPercentage());
    }

    @Test
    void overridesGoFirstWhenTheExampleOpensWithAJob() throws Exception {
        Path f = dir.resolve("two.fio");
        Files.writeString(f, "[a]\nbs=8k\nsize=1m\n[global]\nbs=16k\n[b]\nsize=2m\nblocksize=32k\n");
        String text = JobRender.render(f, List.of("blocksize=4k"), List.of(), null);
        List<Job> jobs = parse(text);
        assertEquals(List.of(4096, 4096), jobs.stream().map(Job::bs).toList());
        assertEquals(List.of("a", "b"), jobs.stream().map(Job::name).toList());
        assertTrue(text.contains("[global]\nblocksize=4k\n\n[a]\n"), text);
    }

    @Test
    void aBadSetKeyIsRefusedNamingIt() {
        JobSpecException e = assertThrows(JobSpecException.class, () ->
                JobRender.render(EXAMPLES.resolve("part-acct.fio"), List.of("iodepht=8"), List.of(), null));
        assertEquals("iodepht", e.key());
        assertTrue(e.getMessage().contains("'iodepht'") && e.getMessage().contains("unknown key"), e.getMessage());
    }

    @Test
    void aBadValueOrMisuseIsRefusedNamingTheKey() {
        Path example = EXAMPLES.resolve("part-acct.fio");
        JobSpecException bad = assertThrows(JobSpecException.class, () ->
                JobRender.render(example, List.of("rw=sideways"), List.of(), null));
        assertEquals("rw", bad.key(), bad.getMessage());
        JobSpecException bare = assertThrows(JobSpecException.class, () ->
                JobRender.render(example, List.of("iodepth"), List.of(), null));
        assertEquals("iodepth", bare.key());
        JobSpecException comment = assertThrows(JobSpecException.class, () ->
                JobRender.render(example, List.of("size=1g;x"), List.of(), null));
        assertEquals("size", comment.key());
        JobSpecException both = assertThrows(JobSpecException.class, () ->
                JobRender.render(example, List.of("size=1g"), List.of("size"), null));
        assertEquals("size", both.key());
        JobSpecException unset = assertThrows(JobSpecException.class, () ->
                JobRender.render(example, List.of(), List.of("sise"), null));
        assertEquals("sise", unset.key());
    }

    @Test
    void nameNeedsExactlyOneJobSection() throws Exception {
        Path f = dir.resolve("two.fio");
        Files.writeString(f, "[a]\nsize=1m\n[b]\nsize=1m\n");
        JobSpecException e = assertThrows(JobSpecException.class, () -> JobRender.render(f, List.of(), List.of(), "c"));
        assertTrue(e.getMessage().contains("this one has 2"), e.getMessage());
        assertThrows(JobSpecException.class, () ->
                JobRender.render(EXAMPLES.resolve("part-acct.fio"), List.of(), List.of(), "global"));
    }
}
