package lab.analysis.flame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import lab.analysis.MalformedResultException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlameGraphSvgTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void mergesStacksIntoATreeWithSampleCounts() throws Exception {
        Path in = write("a.collapsed", "fio;io_submit;blk_mq_submit_bio_[k] 3\nfio;io_submit;zram_submit_bio_[k] 2\nfio;main 5\n");
        FlameGraphSvg.Node root = FlameGraphSvg.parse(in);
        assertEquals(10, root.samples);
        FlameGraphSvg.Node fio = root.children.get("fio");
        assertEquals(10, fio.samples);
        assertEquals(5, fio.children.get("io_submit").samples);
        assertEquals(2, fio.children.get("io_submit").children.get("zram_submit_bio_[k]").samples);
        assertEquals(4, root.depth());
    }

    @Test
    void rendersTheSameBytesWhateverTheLineOrder() throws Exception {
        Path a = write("a.collapsed", "x;b 2\nx;a 1\ny 4\n");
        Path b = write("b.collapsed", "y 4\nx;a 1\nx;b 2\n");
        Path sa = dir.resolve("a.svg");
        Path sb = dir.resolve("b.svg");
        assertEquals(7, FlameGraphSvg.render(a, sa, "t"));
        FlameGraphSvg.render(b, sb, "t");
        String svg = Files.readString(sa);
        assertEquals(svg, Files.readString(sb));
        assertTrue(svg.contains("<title>x (3 samples, 42.9%)</title>"), svg);
        assertTrue(svg.endsWith("</svg>\n"));
    }

    @Test
    void escapesFrameNames() throws Exception {
        Path in = write("e.collapsed", "java;Map<K,V>::get&put 1\n");
        String svg = FlameGraphSvg.svg(FlameGraphSvg.parse(in), "<t>");
        assertTrue(svg.contains("Map&lt;K,V&gt;::get&amp;put"));
        assertFalse(svg.contains("<t>"));
    }

    @Test
    void malformedLineIsNamedWithFileAndLine() throws Exception {
        Path in = write("bad.collapsed", "a;b 1\na;c notanumber\n");
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> FlameGraphSvg.parse(in));
        assertTrue(e.getMessage().contains("bad.collapsed: line 2"), e.getMessage());
    }

    @Test
    void emptyFileIsAnError() throws Exception {
        Path in = write("empty.collapsed", "");
        MalformedResultException e = assertThrows(MalformedResultException.class, () -> FlameGraphSvg.parse(in));
        assertTrue(e.getMessage().contains("no samples"));
    }

    @Test
    void kernelFramesAreOrange() {
        assertTrue(FlameGraphSvg.color("zram_submit_bio_[k]").startsWith("rgb(230,"));
        assertFalse(FlameGraphSvg.color("java_main").startsWith("rgb(230,"));
    }
}
