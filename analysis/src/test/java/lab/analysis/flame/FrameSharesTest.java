package lab.analysis.flame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.analysis.MalformedResultException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FrameSharesTest {
    @TempDir
    Path dir;

    @Test
    void aFrameCountsOncePerStackItIsInWithoutPerfsKernelSuffix() throws Exception {
        Path f = Files.writeString(dir.resolve("x.collapsed"), "a;b_[k];c_[k];b_[k] 3\na;c_[k] 1\n\na 6\n");
        FrameShares s = FrameShares.of(f, List.of("b", "c", "d"));
        assertEquals(10, s.samples());
        assertEquals(0.3, s.shares().get("b"), 1e-12, "b recurs in one stack of 3 samples: 3, not 6");
        assertEquals(0.4, s.shares().get("c"), 1e-12);
        assertEquals(0.0, s.shares().get("d"), 1e-12);
    }

    @Test
    void aLineWithoutACountIsAnErrorNamingItsLine() throws IOException {
        Path f = Files.writeString(dir.resolve("y.collapsed"), "a;b 1\na;b\n");
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> FrameShares.of(f, List.of("b")));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    }
}
