package lab.analysis.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import lab.analysis.chart.Svg.Anchor;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class SvgTest {
    @Test
    void escapesMarkupAndDropsCharactersXmlCannotHold() {
        assertEquals("a &amp; b &lt;c&gt; &quot;d&quot; \uFFFD", Svg.escape("a & b <c> \"d\" \u0007"));
    }

    @Test
    void numbersHaveOneDecimalWhateverTheDefaultLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertEquals("1234.6", Svg.num(1234.56));
            assertEquals("0.0", Svg.num(-0.04));
            assertEquals("0.00", Svg.fixed(-0.0, 2));
            assertEquals("-0.1", Svg.num(-0.05));
        } finally {
            Locale.setDefault(saved);
        }
        assertThrows(IllegalArgumentException.class, () -> Svg.num(Double.NaN));
    }

    @Test
    void writesAStandaloneSvgThatParses() throws Exception {
        String svg = new Svg(100, 50).group("tip <1>").rect(1, 2, 3, 4, "#000000").end()
                .line(0, 0, 1, 1, "#000000", 1).dashed(0, 0, 1, 1, "#000000", 1)
                .polyline(new double[] {0, 1}, new double[] {2, 3}, "#000000", 2).circle(5, 5, 2, "#000000")
                .text(10, 10, Anchor.END, 12, "x & y").textUp(5, 25, 12, "up").finish();
        Document doc = Xml.parse(svg);
        assertEquals("0 0 100 50", doc.getDocumentElement().getAttribute("viewBox"));
        assertEquals("sans-serif", doc.getDocumentElement().getAttribute("font-family"));
        assertEquals("tip <1>", Xml.all(doc, "title").getFirst().getTextContent());
        assertEquals("0.0,2.0 1.0,3.0", Xml.all(doc, "polyline").getFirst().getAttribute("points"));
        assertTrue(svg.contains(">x &amp; y</text>"), svg);
        assertTrue(!svg.contains("<script") && !svg.contains("<style"), svg);
    }
}
