package lab.cli;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import sun.misc.Signal;

/**
 * What the lab does with a kernel script it runs when the lab itself is stopped (Ctrl-C, SIGINT;
 * or SIGTERM): it stops the script's workloads (fio, perf, the bridge's JVM, a qemu guest) and
 * the script with SIGTERM, so that the script's own trap removes every device the run made and
 * marks the run folder interrupted ({@code common/rc.sh}, {@code _scenario_interrupted}), and
 * waits for that teardown before the JVM exits (with 130 after SIGINT, 143 after SIGTERM). A terminal's Ctrl-C reaches the whole process group anyway; this covers a
 * signal sent to the lab alone, and a script that would otherwise finish its current step
 * first. Once stopping, no new script starts.
 *
 * <p>Only the workloads are signalled, not every descendant: the teardown's own commands
 * ({@code losetup -d}, the zram reset) must run to their end. A teardown still running after
 * {@link #TEARDOWN_SECONDS} is killed outright.
 */
final class ChildStop {
    /** The programs a scenario runs as workloads, by the file name of their command. */
    static final Set<String> WORKLOADS = Set.of("fio", "perf", "java", "qemu-system-x86_64");
    /** How long a script's teardown may take after the stop. */
    static final long TEARDOWN_SECONDS = 120;

    private static volatile boolean stopping;
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();
    /** What runs once the scripts have stopped, before the exit: {@link #onStop}. */
    private static final java.util.List<Runnable> AFTER = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static boolean installed;

    private ChildStop() {
    }

    /** Starts {@code pb}, unless the lab is being stopped; the first start installs the signal handlers. */
    static synchronized Process start(ProcessBuilder pb) throws IOException {
        if (stopping) {
            throw new IOException("the lab is stopping: " + String.join(" ", pb.command()) + " not started");
        }
        if (!installed) {
            handle("INT", 2);
            handle("TERM", 15);
            installed = true;
        }
        Process p = pb.start();
        RUNNING.add(p);
        return p;
    }

    /**
     * {@code r} runs when the lab is stopped, after its scripts have (the fleet stops its remote
     * runs so); on the stopping thread, before the exit.
     */
    static void onStop(Runnable r) {
        AFTER.add(r);
    }

    /**
     * Returns at once unless the lab is being stopped; then never: the stopping thread runs the
     * {@link #onStop} actions and exits the JVM, which the caller must not do first (a command
     * whose child was stopped under it would otherwise fail and exit with the teardown half done).
     */
    static void awaitStop() throws InterruptedException {
        if (stopping) {
            new java.util.concurrent.CountDownLatch(1).await();
        }
    }

    /** Waits for {@code p}, started by {@link #start}, to end; returns its status. */
    static int waitFor(Process p) throws InterruptedException {
        try {
            return p.waitFor();
        } finally {
            RUNNING.remove(p);
        }
    }

    /**
     * SIGNAL stops every running script ({@link #stop}) on a thread of its own, then exits the JVM
     * with 128 + its number, as a shell reports a command a signal ended.
     */
    private static void handle(String name, int number) {
        try {
            Signal.handle(new Signal(name), sig -> {
                stopping = true;
                Thread t = new Thread(() -> {
                    System.err.println("lab: SIG" + name + ": stopping the run (its devices are removed; its folder stays *.partial)");
                    for (Process p : RUNNING) {
                        stop(p);
                    }
                    AFTER.forEach(Runnable::run);
                    System.exit(128 + number);
                }, "lab-stop");
                t.start();
            });
        } catch (IllegalArgumentException unavailable) {
            // the JVM keeps this signal (e.g. -Xrs): its default handling applies
        }
    }

    /** SIGTERM to the workloads and the script, then wait for its teardown (forcibly ended after the budget). */
    static void stop(Process p) {
        if (!p.isAlive()) {
            return;
        }
        p.descendants().filter(ChildStop::isWorkload).forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(TEARDOWN_SECONDS, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static boolean isWorkload(ProcessHandle h) {
        Optional<String> cmd = h.info().command();
        if (cmd.isEmpty()) {
            return false;
        }
        String c = cmd.get();
        return WORKLOADS.contains(c.substring(c.lastIndexOf('/') + 1));
    }
}
