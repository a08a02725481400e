package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static lab.jobspec.TestJobs.assertRefused;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** stonewall, new_group, wait_for and buffered: parsing, fio's groups and start rules. */
class JobOrderTest {
    private static final Path FILE = Path.of("order.fio");

    private static List<Job> jobs(String text) throws JobSpecException {
        return JobFileParser.parse(FILE, text).jobs();
    }

    private static BitSet bits(int... set) {
        BitSet b = new BitSet();
        for (int i : set) {
            b.set(i);
        }
        return b;
    }

    @Test
    void optionsAreParsedWithTheirAliases() throws Exception {
        List<Job> js = jobs("[global]\nsize=1m\n[a]\n[b]\nwait_for_previous\n[c]\nnew_group=1\nwait_for=a\n[d]\nstonewall=0\n");
        assertEquals(new Job.Order(false, false, null), js.get(0).order());
        assertEquals(new Job.Order(true, false, null), js.get(1).order());
        assertEquals(new Job.Order(false, true, "a"), js.get(2).order());
        assertEquals(Job.Order.NONE, js.get(3).order());
        assertNull(js.get(3).order().waitFor());
    }

    /** fio's add_job(): stonewall/new_group open the next group, but not on the first job. */
    @Test
    void groupIdsFollowFio() throws Exception {
        List<Job> js = jobs("[global]\nsize=1m\n[a]\nstonewall\n[b]\n[c]\nnew_group\n[d]\nstonewall\nnumjobs=3\n"
                + "[e]\n[f]\nwait_for=a\n[g]\nstonewall\nnew_group\n");
        assertArrayEquals(new int[] {0, 0, 1, 2, 2, 2, 3}, JobOrder.groupIds(js));
    }

    /** fio's run_threads(): a stonewall job and all after it wait for every job before it; wait_for adds its waitee. */
    @Test
    void startRulesFollowFio() throws Exception {
        List<Job> js = jobs("[global]\nsize=1m\n[a]\n[b]\nwait_for=a\n[c]\nstonewall\n[d]\n[e]\nwait_for=d\n[f]\nstonewall\n");
        List<BitSet> w = JobOrder.waitsFor(js);
        assertEquals(List.of(bits(), bits(0), bits(0, 1), bits(0, 1), bits(0, 1, 3), bits(0, 1, 2, 3, 4)), w);
    }

    @Test
    void aFirstJobsStonewallWaitsForNothing() throws Exception {
        assertTrue(JobOrder.waitsFor(jobs("[a]\nsize=1m\nstonewall\n")).getFirst().isEmpty());
    }

    @Test
    void waitForMustNameOneEarlierOtherJob() {
        assertRefused("[a]\nsize=1m\nwait_for=b\n[b]\nsize=1m\n", 3, "wait_for", "waitee job 'b' unknown");
        assertRefused("[a]\nsize=1m\nwait_for=a\n", 3, "wait_for", "cannot wait for itself");
        assertRefused("[global]\nsize=1m\n[x]\n[x]\n[y]\nwait_for=x\n", 6, "wait_for", "2 jobs before this one");
        assertRefused("[global]\nsize=1m\n[x]\n[y]\nwait_for=x\n[x]\n", 5, "wait_for", "also the name of a later job (line 6)");
        assertRefused("[a]\nsize=1m\nstonewall=2\n", 3, "stonewall", "not 0 or 1");
        assertRefused("[a]\nsize=1m\nwait_for_previous=yes\n", 3, "wait_for_previous", "not 0 or 1");
    }

    /** The waitee is found by its name=, not its section name, as fio's o.name. */
    @Test
    void waitForUsesTheJobsName() throws Exception {
        List<Job> js = jobs("[global]\nsize=1m\n[s]\nname=writer\n[r]\nwait_for=writer\n");
        assertEquals(List.of(bits(), bits(0)), JobOrder.waitsFor(js));
    }

    /** buffered is direct's inverse: the one written last wins, a job's over [global]'s. */
    @Test
    void bufferedIsTheInverseOfDirect() throws Exception {
        List<Job> js = jobs("[global]\nsize=1m\ndirect=1\n[a]\n[b]\nbuffered\n[c]\nbuffered=0\n[d]\nbuffered=1\ndirect=1\n"
                + "[e]\ndirect=0\nbuffered=0\n");
        assertEquals(List.of(true, false, true, true, true), js.stream().map(Job::direct).toList());
        assertFalse(jobs("[a]\nsize=1m\n").getFirst().direct());
        assertRefused("[a]\nsize=1m\nbuffered=2\n", 3, "buffered", "not 0 or 1");
        assertRefused("[a]\nsize=1m\ndirect=x\nbuffered=1\n", 3, "direct", "not 0 or 1");
    }
}
