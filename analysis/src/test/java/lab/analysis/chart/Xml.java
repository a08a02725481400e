package lab.analysis.chart;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** Parses produced SVG as XML (failing the test when it is not) and finds elements in it. */
final class Xml {
    static final String SVG_NS = "http://www.w3.org/2000/svg";

    private Xml() {}

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    }

    static List<Element> all(Document doc, String tag) {
        return elements(doc.getElementsByTagNameNS(SVG_NS, tag));
    }

    static List<Element> children(Element parent, String tag) {
        return elements(parent.getElementsByTagNameNS(SVG_NS, tag));
    }

    /** The group whose tooltip starts with {@code prefix}. */
    static Element group(Document doc, String prefix) {
        return all(doc, "g").stream()
                .filter(g -> children(g, "title").getFirst().getTextContent().startsWith(prefix))
                .findFirst().orElseThrow(() -> new AssertionError("no group titled " + prefix + "..."));
    }

    /** The texts of all {@code <text>} elements, in document order. */
    static List<String> texts(Document doc) {
        return all(doc, "text").stream().map(Element::getTextContent).toList();
    }

    private static List<Element> elements(NodeList nodes) {
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add((Element) nodes.item(i));
        }
        return out;
    }
}
