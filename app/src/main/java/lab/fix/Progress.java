package lab.fix;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of a long step for the person watching it: on a terminal, one status line rewritten in
 * place ({@link #status}); in CI and logs (no terminal, or {@code TERM=dumb}), the same text as
 * plain lines, at most one every {@link #PLAIN_EVERY_NS} ns, so a log gets a line a while and not
 * a line a second. And the estimate of what is left ({@link #eta}), from the work done so far.
 */
public final class Progress {
    /** Off a terminal: the least time between two plain status lines. */
    static final long PLAIN_EVERY_NS = 30_000_000_000L;
    /** A status line is cut to this many characters, so that it never wraps on a usual terminal. */
    static final int WIDTH = 118;

    private final PrintStream out;
    private final boolean terminal;
    private long lastPlain = Long.MIN_VALUE;
    private boolean shown;

    public Progress(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** A progress on {@code out}, in place where this process runs on a terminal. */
    public static Progress on(PrintStream out) {
        java.io.Console c = System.console();
        String term = System.getenv("TERM");
        return new Progress(out, c != null && c.isTerminal() && term != null && !term.equals("dumb") && System.getenv("CI") == null);
    }

    /** Shows {@code text} as the current status: in place on a terminal; else a plain line, if the last was long enough ago. */
    public synchronized void status(String text) {
        String t = text.length() > WIDTH ? text.substring(0, WIDTH - 1) + "…" : text;
        if (terminal) {
            out.print("\r\033[K" + t);
            out.flush();
            shown = true;
            return;
        }
        long now = System.nanoTime();
        if (lastPlain == Long.MIN_VALUE || now - lastPlain >= PLAIN_EVERY_NS) {
            lastPlain = now;
            out.println(t);
        }
    }

    /** Ends the status line (the terminal's cursor back at a clean line), before other output. */
    public synchronized void done() {
        if (shown) {
            out.print("\r\033[K");
            out.flush();
            shown = false;
        }
        lastPlain = Long.MIN_VALUE;
    }

    /**
     * What is left, from {@code done} of {@code total} units taking {@code elapsedNs}: "about 3 min
     * 10 s left", or an empty string before the first unit (nothing to go by yet).
     */
    public static String eta(long elapsedNs, int done, int total) {
        if (done <= 0 || total <= done) {
            return "";
        }
        long left = Math.round(elapsedNs / 1e9 / done * (total - done));
        return "about " + duration(left) + " left";
    }

    /** "45 s", "3 min 10 s", "1 h 02 min". */
    public static String duration(long s) {
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, s % 3600 / 60);
    }
}
