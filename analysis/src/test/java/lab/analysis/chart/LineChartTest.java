package lab.analysis.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lab.analysis.chart.LineChart.Point;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class LineChartTest {
    static LineChart sweep() {
        return new LineChart("Hand-off \"fair\" lock", "threads", "throughput (Mops/s)")
                .log2X()
                .series("jvm", List.of(Point.of(4, 4.2), Point.of(1, 9.5, 9.1, 9.8), Point.of(2, 7.0),
                        Point.of(8, Double.NaN), Point.of(16, 1.5, 1.2, 1.9)))
                .series("kernel", List.of(Point.of(1, 6.1), Point.of(2, 6.0), Point.of(4, 5.8), Point.of(8, 5.5),
                        Point.of(16, 5.1)))
                .markX(3, "crossover");
    }

    @Test
    void sameInputGivesTheSameBytes() {
        assertEquals(sweep().toSvg(), sweep().toSvg());
    }

    @Test
    void log2XSpacesThreadCountsEvenly() throws Exception {
        Scale x = sweep().xScale();
        for (int t = 1; t < 16; t *= 2) {
            assertEquals(x.px(2) - x.px(1), x.px(2 * t) - x.px(t), 1e-9);
        }
        List<String> texts = Xml.texts(Xml.parse(sweep().toSvg()));
        assertTrue(texts.containsAll(List.of("1", "2", "4", "8", "16", "threads", "throughput (Mops/s)")), texts.toString());
    }

    @Test
    void nanLeavesAGapAndPointsAreDrawnInXOrder() throws Exception {
        Document doc = Xml.parse(sweep().toSvg());
        List<Element> lines = Xml.all(doc, "polyline");
        assertEquals(2, lines.size(), "jvm 1..4 (gap at 8, 16 alone), then kernel");
        assertEquals(3, lines.getFirst().getAttribute("points").split(" ").length);
        assertEquals(5, lines.get(1).getAttribute("points").split(" ").length);
        Scale x = sweep().xScale();
        String first = lines.getFirst().getAttribute("points").split(" ")[0];
        assertTrue(first.startsWith(Svg.num(x.px(1)) + ","), first);
        assertEquals(9, Xml.all(doc, "circle").size() - 2, "4 jvm + 5 kernel markers, 2 legend markers");
    }

    @Test
    void errorBarSpansExactlyFromLowToHigh() throws Exception {
        LineChart c = sweep();
        Scale y = c.yScale();
        Element g = Xml.group(Xml.parse(c.toSvg()), "jvm @ 16:");
        assertEquals("jvm @ 16: 1.50 [1.20, 1.90]", Xml.children(g, "title").getFirst().getTextContent());
        Element bar = Xml.children(g, "line").getFirst();
        assertEquals(Svg.num(c.xScale().px(16)), bar.getAttribute("x1"));
        assertEquals(Svg.num(y.px(1.9)), bar.getAttribute("y1"));
        assertEquals(Svg.num(y.px(1.2)), bar.getAttribute("y2"));
        assertEquals(Plot.BOTTOM, y.px(0), 1e-9);
    }

    @Test
    void markXDrawsADashedVerticalLineWithItsLabel() throws Exception {
        LineChart c = sweep();
        Document doc = Xml.parse(c.toSvg());
        Element mark = Xml.all(doc, "line").stream().filter(l -> l.hasAttribute("stroke-dasharray")).findFirst().orElseThrow();
        assertEquals(Svg.num(c.xScale().px(3)), mark.getAttribute("x1"));
        assertEquals(mark.getAttribute("x1"), mark.getAttribute("x2"));
        assertTrue(Xml.texts(doc).contains("crossover"));
    }

    @Test
    void markYDrawsADashedHorizontalLineThatTheYAxisHolds() throws Exception {
        LineChart c = new LineChart("ratio", "slots", "a / b (x)").log2X().yFromZero(false)
                .series("HZ 1000", List.of(Point.of(2, 1.2), Point.of(256, 1.1)))
                .markY(1.0, "1.0 = equal");
        assertTrue(c.yAxis().min() <= 1.0, "the axis reaches the mark: " + c.yAxis().min());
        Document doc = Xml.parse(c.toSvg());
        Element mark = Xml.all(doc, "line").stream().filter(l -> l.hasAttribute("stroke-dasharray")).findFirst().orElseThrow();
        assertEquals(Svg.num(c.yScale().px(1.0)), mark.getAttribute("y1"));
        assertEquals(mark.getAttribute("y1"), mark.getAttribute("y2"));
        assertTrue(Xml.texts(doc).contains("1.0 = equal"));
    }

    @Test
    void yAxisMayFitTheDataWhenToldTo() {
        LineChart c = new LineChart("t", "threads", "latency (us)").yFromZero(false)
                .series("s", List.of(Point.of(1, 101), Point.of(2, 109)));
        assertTrue(c.yAxis().min() >= 100, c.yAxis().toString());
        assertEquals(0.0, new LineChart("t", "threads", "latency (us)")
                .series("s", List.of(Point.of(1, 101), Point.of(2, 109))).yAxis().min());
    }

    @Test
    void legendOnlyForMoreThanOneSeries() throws Exception {
        LineChart one = new LineChart("t", "threads", "IOPS (k)").series("lonely", List.of(Point.of(1, 1), Point.of(2, 2)));
        assertFalse(Xml.texts(Xml.parse(one.toSvg())).contains("lonely"));
        assertTrue(Xml.texts(Xml.parse(sweep().toSvg())).containsAll(List.of("jvm", "kernel")));
    }
}
