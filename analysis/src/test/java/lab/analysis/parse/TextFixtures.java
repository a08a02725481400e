package lab.analysis.parse;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.analysis.MalformedResultException;
import org.junit.jupiter.api.Assertions;

/** Test resources by path, and copies of them with one line changed, for the text-report parsers' tests. */
final class TextFixtures {
    private TextFixtures() {}

    static Path resource(String path) {
        try {
            return Path.of(TextFixtures.class.getResource("/" + path).toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("test resource " + path + " is missing", e);
        }
    }

    /** {@code lines} written to {@code dir/name} with line {@code index} (0-based) replaced. */
    static Path edit(Path dir, String name, List<String> lines, int index, String replacement) throws Exception {
        List<String> copy = new ArrayList<>(lines);
        copy.set(index, replacement);
        return Files.write(dir.resolve(name), copy);
    }

    /** A parser's read, for {@link #assertMalformed}. */
    interface Reader {
        Object read(Path file) throws MalformedResultException;
    }

    /** That {@code reader} rejects {@code f} with a message {@code f: ...problem...}. */
    static void assertMalformed(Reader reader, Path f, String problem) {
        MalformedResultException e = Assertions.assertThrows(MalformedResultException.class, () -> reader.read(f));
        Assertions.assertTrue(e.getMessage().startsWith(f + ": "), e.getMessage());
        Assertions.assertTrue(e.getMessage().contains(problem), e.getMessage());
        Assertions.assertEquals(f, e.file());
    }
}
