package lab.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import one.profiler.AsyncProfiler;

/**
 * An async-profiler CPU flamegraph of this JVM around one run, written as HTML.
 *
 * <p>Uses the in-process API of the {@code tools.profiler:async-profiler} artifact, which carries
 * the linux-x64 library. It asks for {@code event=cpu} (perf_events; kernel frames where
 * {@code perf_event_paranoid} allows) and falls back to {@code itimer}; where neither works, it
 * says so on the notes stream and the run goes on unprofiled. It never fails the run.
 */
final class Flamegraph implements AutoCloseable {
    private final AsyncProfiler profiler;
    private final Path out;
    private final PrintStream notes;
    private final String event;

    private Flamegraph(AsyncProfiler profiler, Path out, PrintStream notes, String event) {
        this.profiler = profiler;
        this.out = out;
        this.notes = notes;
        this.event = event;
    }

    /** Starts profiling into {@code out} (HTML); null {@code out} gives a handle that does nothing. */
    static Flamegraph start(Path out, PrintStream notes) {
        if (out == null) {
            return new Flamegraph(null, null, notes, null);
        }
        AsyncProfiler p;
        try {
            p = AsyncProfiler.getInstance();
        } catch (Throwable e) { // UnsatisfiedLinkError on a platform the artifact does not carry
            notes.println("lab: no flamegraph: async-profiler did not load (" + e.getMessage() + ")");
            return new Flamegraph(null, null, notes, null);
        }
        for (String event : new String[] {"cpu", "itimer"}) {
            try {
                p.execute("start,event=" + event + ",interval=1ms");
                return new Flamegraph(p, out, notes, event);
            } catch (Exception e) {
                notes.println("lab: async-profiler event=" + event + " unavailable: " + e.getMessage());
            }
        }
        notes.println("lab: no flamegraph: no profiling event works here");
        return new Flamegraph(null, null, notes, null);
    }

    /** Stops and writes the flamegraph, if one was started, and for FILE.html also FILE.collapsed. */
    @Override
    public void close() {
        if (profiler == null) {
            return;
        }
        try {
            Files.createDirectories(out.toAbsolutePath().getParent());
            String html = out.toAbsolutePath().toString();
            if (html.endsWith(".html")) { // the same samples as text, for grep and awk
                profiler.execute("dump,collapsed,file=" + html.substring(0, html.length() - 5) + ".collapsed");
            }
            profiler.execute("stop,file=" + html + ",title=" + out.getFileName());
            notes.println("lab: flamegraph (async-profiler, event=" + event + "): " + out);
        } catch (Exception e) {
            notes.println("lab: flamegraph not written: " + e.getMessage());
        }
    }
}
