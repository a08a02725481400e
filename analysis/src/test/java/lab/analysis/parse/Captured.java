package lab.analysis.parse;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The real files captured on the lab VM, under {@code src/test/resources/captured/}. */
final class Captured {
    private Captured() {}

    static Path file(String name) {
        try {
            return Path.of(Captured.class.getResource("/captured/" + name).toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("test resource captured/" + name + " is missing", e);
        }
    }
}
