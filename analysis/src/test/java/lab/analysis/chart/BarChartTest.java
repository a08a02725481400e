package lab.analysis.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import lab.analysis.chart.BarChart.Bar;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class BarChartTest {
    static BarChart twoSeries() {
        return new BarChart("Ratio <bridge/fio> & more", "speed-up (x)")
                .xLabel("variant")
                .categories(List.of("spin", "mcs", "clh"))
                .series("kernel", List.of(Bar.of(1.0), Bar.of(1.2, 1.1, 1.3), Bar.missing()))
                .series("jvm", List.of(Bar.of(1.74, 1.6, 1.9), Bar.of(0.8), Bar.of(2.5, 2.4, 2.6)))
                .referenceLine(1.0, "1.0 = baseline");
    }

    @Test
    void sameInputGivesTheSameBytes() {
        assertEquals(twoSeries().toSvg(), twoSeries().toSvg());
        BarChart c = twoSeries();
        assertEquals(c.toSvg(), c.toSvg());
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("de-DE"));
            String german = twoSeries().toSvg();
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            assertEquals(german, twoSeries().toSvg());
            Locale.setDefault(Locale.ROOT);
            assertEquals(german, twoSeries().toSvg());
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void seriesKeepTheirOrderAndColours() throws Exception {
        Document doc = Xml.parse(twoSeries().toSvg());
        List<String> texts = Xml.texts(doc);
        assertTrue(texts.indexOf("kernel") < texts.indexOf("jvm"), texts.toString());
        assertTrue(texts.indexOf("spin") < texts.indexOf("mcs") && texts.indexOf("mcs") < texts.indexOf("clh"));
        assertEquals(Plot.PALETTE.get(0), bar(doc, "kernel / spin").getAttribute("fill"));
        assertEquals(Plot.PALETTE.get(1), bar(doc, "jvm / spin").getAttribute("fill"));
    }

    @Test
    void textIsEscapedAndTheSvgIsStandalone() throws Exception {
        String svg = twoSeries().toSvg();
        assertTrue(svg.contains("Ratio &lt;bridge/fio&gt; &amp; more"), svg);
        Document doc = Xml.parse(svg);
        assertEquals("Ratio <bridge/fio> & more", Xml.texts(doc).getFirst());
        Element root = doc.getDocumentElement();
        assertEquals(Xml.SVG_NS, root.getNamespaceURI());
        assertEquals("1.1", root.getAttribute("version"));
        assertEquals("0 0 720 420", root.getAttribute("viewBox"));
        assertTrue(Xml.texts(doc).containsAll(List.of("speed-up (x)", "variant", "1.0 = baseline")));
    }

    @Test
    void errorBarSpansExactlyFromLowToHigh() throws Exception {
        BarChart c = twoSeries();
        Scale y = c.yScale();
        Element g = Xml.group(Xml.parse(c.toSvg()), "jvm / spin");
        assertEquals("jvm / spin: 1.740 [1.600, 1.900]", Xml.children(g, "title").getFirst().getTextContent());
        Element bar = Xml.children(g, "line").getFirst();
        assertEquals(bar.getAttribute("x1"), bar.getAttribute("x2"));
        assertEquals(Svg.num(y.px(1.9)), bar.getAttribute("y1"));
        assertEquals(Svg.num(y.px(1.6)), bar.getAttribute("y2"));
        Element rect = Xml.children(g, "rect").getFirst();
        assertEquals(Svg.num(y.px(1.74)), rect.getAttribute("y"));
        double centre = Double.parseDouble(rect.getAttribute("x")) + Double.parseDouble(rect.getAttribute("width")) / 2;
        assertEquals(Double.parseDouble(bar.getAttribute("x1")), centre, 0.11);
    }

    @Test
    void yAxisRunsFromZeroAcrossThePlotArea() {
        Scale y = twoSeries().yScale();   // data up to 2.6: ticks 0, 0.5, ... 3
        assertEquals(Plot.BOTTOM, y.px(0), 1e-9);
        assertEquals(Plot.TOP, y.px(3), 1e-9);
        assertEquals("99.3", Svg.num(y.px(2.5)));
    }

    @Test
    void aMissingBarDrawsOnlyNa() throws Exception {
        Element g = Xml.group(Xml.parse(twoSeries().toSvg()), "kernel / clh");
        assertEquals("kernel / clh: n/a", Xml.children(g, "title").getFirst().getTextContent());
        assertTrue(Xml.children(g, "rect").isEmpty());
        assertTrue(Xml.children(g, "line").isEmpty());
        assertEquals("n/a", Xml.children(g, "text").getFirst().getTextContent());
        Element noErr = Xml.group(Xml.parse(twoSeries().toSvg()), "kernel / spin");
        assertTrue(Xml.children(noErr, "line").isEmpty());
    }

    @Test
    void legendOnlyForMoreThanOneSeries() throws Exception {
        BarChart one = new BarChart("t", "IOPS (k)").categories(List.of("a", "b"))
                .series("only-series", List.of(Bar.of(3), Bar.of(4)));
        assertFalse(Xml.texts(Xml.parse(one.toSvg())).contains("only-series"));
        List<String> texts = Xml.texts(Xml.parse(twoSeries().toSvg()));
        assertTrue(texts.contains("kernel") && texts.contains("jvm"), texts.toString());
    }

    /** Two reference lines 3 px apart (1.0 and an A/A bound) keep their labels 13 px apart: the second goes below its line. */
    @Test
    void labelsOfCloseReferenceLinesDoNotOverlap() throws Exception {
        BarChart c = new BarChart("t", "ratio (x)").categories(List.of("a")).series("s", List.of(Bar.of(2)))
                .referenceLine(1.0, "1.0 = no change").referenceLine(1.01, "A/A 95% interval").referenceLine(0.99, "");
        Document doc = Xml.parse(c.toSvg());
        double one = labelY(doc, "1.0 = no change");
        double aa = labelY(doc, "A/A 95% interval");
        assertEquals(c.yScale().px(1.0) - 5, one, 1e-6);
        assertTrue(Math.abs(one - aa) >= 13, one + " and " + aa);
        assertEquals(List.of(100.0 - 5, 100.0 + 13, 100.0 + 26).toString(), List.of(BarChart.labelY(100, List.of()),
                BarChart.labelY(100, List.of(95.0)), BarChart.labelY(100, List.of(95.0, 113.0))).toString());
    }

    /** A wide bar shows its value above its error bar; a narrow one (many series) only in its tooltip. */
    @Test
    void wideBarsCarryTheirValueAboveTheErrorBar() throws Exception {
        BarChart c = new BarChart("t", "ratio (x)").categories(List.of("seed", "model")).series("s", List.of(Bar.of(1.55), Bar.of(1.18, 0.99, 1.41)));
        Document doc = Xml.parse(c.toSvg());
        Element g = Xml.group(doc, "s / model");
        Element value = Xml.children(g, "text").getFirst();
        assertEquals("1.18", value.getTextContent());
        assertEquals(c.yScale().px(1.41) - 4, Double.parseDouble(value.getAttribute("y")), 0.06);
        assertEquals("1.55", Xml.children(Xml.group(doc, "s / seed"), "text").getFirst().getTextContent());
        List<String> cats = java.util.stream.IntStream.range(0, 12).mapToObj(i -> "c" + i).toList();
        BarChart narrow = new BarChart("t", "y").categories(cats).series("a", cats.stream().map(x -> Bar.of(1)).toList())
                .series("b", cats.stream().map(x -> Bar.of(2)).toList());
        assertTrue(Xml.children(Xml.group(Xml.parse(narrow.toSvg()), "a / c0"), "text").isEmpty());
    }

    private static double labelY(Document doc, String label) {
        org.w3c.dom.NodeList n = doc.getElementsByTagNameNS(Xml.SVG_NS, "text");
        for (int i = 0; i < n.getLength(); i++) {
            if (n.item(i).getTextContent().equals(label)) {
                return Double.parseDouble(((Element) n.item(i)).getAttribute("y"));
            }
        }
        throw new AssertionError("no label " + label);
    }

    @Test
    void negativeBarsGrowDownFromZero() throws Exception {
        BarChart c = new BarChart("delta", "change (%)").categories(List.of("a"))
                .series("s", List.of(Bar.of(-4, -5, -3)));
        Element rect = bar(Xml.parse(c.toSvg()), "s / a");
        assertEquals(Svg.num(c.yScale().px(0)), rect.getAttribute("y"));
    }

    @Test
    void rejectsMismatchedSeriesAndHalfErrorBars() {
        BarChart c = new BarChart("t", "y (s)").categories(List.of("a", "b")).series("s", List.of(Bar.of(1)));
        assertThrows(IllegalStateException.class, c::toSvg);
        assertThrows(IllegalArgumentException.class, () -> new Bar(1, 0.5, null));
        assertThrows(IllegalArgumentException.class, () -> Bar.of(1, 2, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new BarChart(" ", "y"));
    }

    private static Element bar(Document doc, String tip) {
        return Xml.children(Xml.group(doc, tip), "rect").getFirst();
    }

    /** A long label is wrapped onto as many lines as it needs, and the picture grows: nothing is cut. */
    @Test
    void longLabelsAreWrappedNeverCut() throws Exception {
        String name = "one series with a rather long name that must wrap";
        List<String> cats = List.of("uring-qd32-fixedbufs-registerfiles-j2", "psync-j1", "a label with many many words in it",
                "x", "y", "z", "w", "v");
        String svg = new BarChart("t", "y").categories(cats).series(name,
                cats.stream().map(c -> BarChart.Bar.of(1)).toList()).series("two", cats.stream().map(c -> BarChart.Bar.of(2)).toList()).toSvg();
        assertFalse(svg.contains("…"), "nothing is cut with an ellipsis");
        for (String word : List.of("uring-", "qd32-", "fixedbufs-", "registerfiles-", "j2", "many", "words")) {
            assertTrue(svg.contains(word), word);
        }
        assertTrue(svg.contains("height=\"") && !svg.contains("height=\"420\""), "the picture grew for the extra lines");
        // the legend: the long name's lines, one <text> each, between its start and the next series'
        List<String> texts = Xml.texts(Xml.parse(svg));
        int from = texts.indexOf(texts.stream().filter(t -> t.startsWith("one series")).findFirst().orElseThrow());
        List<String> lines = texts.subList(from, texts.indexOf("two"));
        assertTrue(lines.size() >= 2, "the legend wraps: " + lines);
        assertEquals(name, String.join(" ", lines), "every word of the name kept, in order, none cut");
    }
}
