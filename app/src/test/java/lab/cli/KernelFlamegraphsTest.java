package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SVG beside each kernel flamegraph a scenario recorded, titled as the scripts titled it. */
class KernelFlamegraphsTest {
    @TempDir
    Path dir;

    private Path gz(Path at, String text) throws Exception {
        Files.createDirectories(at.getParent());
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(at))) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return at;
    }

    @Test
    void rendersEachCollapsedGzOnceWithTheScriptsTitle() throws Exception {
        gz(dir.resolve("raw/zram.fio.kernel.collapsed.gz"), "fio;entry_SYSCALL_64_[k];do_syscall_64_[k] 3\nfio;main 1\n");
        gz(dir.resolve("zram-disk-iostats1-j2.fio.kernel.collapsed.gz"), "fio;a_[k] 2\n");
        assertEquals(2, KernelFlamegraphs.render(dir));
        String svg = Files.readString(dir.resolve("raw/zram.fio.kernel.svg"));
        assertTrue(svg.contains("zram.fio: perf record -e cpu-clock -g -a (kernel frames _[k])"), svg);
        assertTrue(svg.contains("</svg>") && svg.contains("samples"));
        assertTrue(Files.exists(dir.resolve("zram-disk-iostats1-j2.fio.kernel.svg")));
        assertEquals(0, KernelFlamegraphs.render(dir)); // up to date
    }

    @Test
    void aMalformedFileGetsTheMissingNoteNotAnSvg() throws Exception {
        gz(dir.resolve("bad.bridge.kernel.collapsed.gz"), "no count here\n");
        assertEquals(0, KernelFlamegraphs.render(dir));
        assertFalse(Files.exists(dir.resolve("bad.bridge.kernel.svg")));
        String why = Files.readString(dir.resolve("bad.bridge.kernel-flamegraph-missing.txt"));
        assertTrue(why.startsWith("could not render bad.bridge.kernel.collapsed.gz"), why);
        assertFalse(why.contains("lab-kernel-"), why);
    }
}
