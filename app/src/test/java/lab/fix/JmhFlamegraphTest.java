package lab.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which variants get a flamegraph: every one in a full run, the headline's two in a quick one. */
class JmhFlamegraphTest {
    @Test
    void aQuickRunProfilesTheHeadlinesTwoAFullRunEveryVariant() {
        List<String> all = List.of("mutex", "rwsem", "rwsem-walk", "striped");
        assertEquals(List.of("mutex", "rwsem-walk"), JmhFlamegraph.variants(true, all, "mutex", "rwsem-walk"));
        assertEquals(all, JmhFlamegraph.variants(false, all, "mutex", "rwsem-walk"));
    }
}
