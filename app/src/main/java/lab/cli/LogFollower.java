package lab.cli;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lab.fix.Progress;

/**
 * While a kernel script runs with its output in a log, shows where it is: the newest phase line
 * (kernel-scripts' own messages: {@code lab-kernel: ...}, {@code lab-kernel build: ...},
 * {@code guest.sh: ...}, and the guest's {@code LAB-GUEST-UP}) of that log and of every log the
 * run writes under its output folder (a guest's {@code console.log} carries the guest's phases:
 * its rounds, its A/B trials), with the seconds it has been the newest, through {@link Progress}:
 * in place on a terminal, a plain line now and then in a log. Reads the files, never writes them.
 */
final class LogFollower implements AutoCloseable {
    static final Pattern PHASE = Pattern.compile("^(lab-kernel( build)?: |guest\\.sh: |LAB-GUEST-UP).*");
    private static final long POLL_MS = 1000;

    private final Path log;
    private final Path dir;
    private final Progress progress;
    private final String prefix;
    /** How far each file has been read: to the end of its last whole line. */
    private final Map<Path, Long> read = new HashMap<>();
    private final Thread thread;
    private volatile boolean stop;
    private String phase;
    private long since;

    /** Follows {@code log} and the logs under {@code dir}, from their present ends, until {@link #close}. */
    LogFollower(Path log, Path dir, Progress progress, String prefix) {
        this.log = log;
        this.dir = dir;
        this.progress = progress;
        this.prefix = prefix;
        for (Path f : files()) {
            read.put(f, size(f));
        }
        thread = Thread.ofPlatform().daemon().name("log-follower").start(this::loop);
    }

    private void loop() {
        while (!stop) {
            poll();
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Reads what the files gained; shows the newest phase line, with how long it has been the newest. */
    synchronized void poll() {
        for (Path f : files()) {
            for (String line : newLines(f)) {
                if (PHASE.matcher(line).matches()) {
                    phase = line.strip();
                    since = System.nanoTime();
                }
            }
        }
        if (phase != null) {
            progress.status(prefix + phase + " [" + (System.nanoTime() - since) / 1_000_000_000L + " s]");
        }
    }

    /** The newest phase line seen, or null. */
    synchronized String phase() {
        return phase;
    }

    private List<Path> files() {
        List<Path> out = new java.util.ArrayList<>();
        out.add(log);
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.walk(dir, 4)) {
                s.filter(p -> p.getFileName().toString().endsWith(".log") && !p.equals(log) && Files.isRegularFile(p)).forEach(out::add);
            } catch (IOException | java.io.UncheckedIOException e) {
                // a folder the script is making or removing as we look: next poll
            }
        }
        return out;
    }

    /** The whole lines {@code f} gained since the last read ({@code \r} ends a line too: fio's status). */
    private List<String> newLines(Path f) {
        long from = read.getOrDefault(f, 0L);
        long to = size(f);
        if (to <= from) {
            read.put(f, Math.min(from, to));
            return List.of();
        }
        byte[] b = new byte[(int) Math.min(to - from, 1 << 20)];
        try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "r")) {
            r.seek(from);
            r.readFully(b);
        } catch (IOException e) {
            return List.of();
        }
        int end = b.length;
        while (end > 0 && b[end - 1] != '\n' && b[end - 1] != '\r') {
            end--;
        }
        if (end == 0 && b.length < (1 << 20)) {
            return List.of();       // no whole line yet
        }
        read.put(f, from + (end == 0 ? b.length : end));
        return List.of(new String(b, 0, end == 0 ? b.length : end, StandardCharsets.ISO_8859_1).split("[\r\n]+"));
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Stops following and clears the status line. */
    @Override
    public void close() {
        stop = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        progress.done();
    }
}
