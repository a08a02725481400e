package lab.fix;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import lab.analysis.fidelity.LineCounts;
import lab.engine.count.SharedLineCounts;

/** Writes a fix's shared-line counts ({@code raw/<fix>/counts.json}, read by {@link LineCounts}). */
public final class Counting {
    private Counting() {}

    /** I/Os each count run does: enough for a count per I/O exact to 1e-5, well under a second each. */
    public static final long IOS = 100_000;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Writes {@code counts} and returns the kinds they hold (per I/O or per tick). */
    public static Set<String> write(Path fixRaw, List<SharedLineCounts> counts) throws IOException {
        JSON.writeValue(fixRaw.resolve(LineCounts.FILE).toFile(), counts);
        return kinds(counts);
    }

    /** The kinds {@code counts} hold (per I/O or per tick): what the cost sweep prices. */
    public static Set<String> kinds(List<SharedLineCounts> counts) {
        Set<String> kinds = new TreeSet<>();
        counts.forEach(c -> {
            kinds.addAll(c.perIoByKind().keySet());
            kinds.addAll(c.perTickByKind().keySet());
        });
        return kinds;
    }
}
