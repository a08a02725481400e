package lab.analysis.parse;

import java.nio.file.Path;

/** The real files captured on the lab VM, under {@code src/test/resources/captured/}. */
final class Captured {
    private Captured() {}

    static Path file(String name) {
        return TextFixtures.resource("captured/" + name);
    }
}
