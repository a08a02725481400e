package lab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import lab.fix.Fixes;
import lab.results.Manifest;
import lab.results.RunFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lab fleet INVENTORY -- pair FIX... [pair options]}: the same pairing on every host of an
 * Ansible inventory, gathered into one comparison. Ansible ({@code ansible-core}) does the work,
 * with the playbooks in {@code fleet/}:
 * <ol>
 * <li>{@code check.yml}: each host's system, cores, kernel, KVM, user and free disk, before
 *     anything starts; a host that is unreachable or cannot run the pairing is left out, with
 *     its reason;</li>
 * <li>{@code run.yml}: the lab at this commit ({@code git archive} of HEAD, with the jars when
 *     they are this commit's, so that no host builds) unpacked on each host that passed, {@code
 *     ./lab pair} run there, in parallel ({@code --forks}), each within {@code --limit} seconds;
 *     its run folder fetched whole, whatever the pair's end, and nothing left on the host;</li>
 * <li>here: each host's run folder under {@code hosts/HOST/} of one {@code results/fleet-<time>/},
 *     every host's state and reason in {@code raw/fleet/hosts.tsv}, and the comparison of the
 *     runs that finished ({@code ./lab compare}'s notebook: the hosts side by side, each fix's
 *     headline across them).</li>
 * </ol>
 * Ctrl-C stops the playbook and runs {@code stop.yml} on every host: the run's processes
 * killed, its devices torn down, its folder removed. Exit 0 when every host's pairing finished,
 * 1 when one did not (the folder says which and why), 2 on bad input (nothing made).
 */
@Command(name = "fleet", mixinStandardHelpOptions = true,
        description = {"Run one pairing on every host of an inventory.",
                "./lab fleet INVENTORY -- pair FIX... [pair options], through Ansible",
                "(ansible-core): checks each host first (reachable, Linux, free disk;",
                "root, KVM), ships this commit to the hosts that can run it, runs",
                "./lab pair there in parallel, fetches each run folder into",
                "results/fleet-<UTC time>/hosts/HOST/ and writes one comparison; a host",
                "that failed or timed out is listed with its reason."})
final class FleetCommand implements Callable<Integer> {
    /** Free bytes a host needs where the lab goes: the lab, its jars and a run folder. */
    static final long MIN_FREE_BYTES = 2L << 30;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(index = "0", paramLabel = "INVENTORY", description = "an Ansible inventory (INI or YAML)")
    Path inventory;

    @Parameters(index = "1..*", paramLabel = "pair FIX...", description = "after --: pair, the fixes and pair's options")
    List<String> command = new ArrayList<>();

    @Option(names = "--limit", paramLabel = "SECONDS", description = "each host's time limit for its pairing (default: 7200)")
    int limitSeconds = 7200;

    @Option(names = "--forks", paramLabel = "N", description = "hosts worked on at once (Ansible's forks; default: 10)")
    int forks = 10;

    @Option(names = "--lab-dir", paramLabel = "DIR",
            description = "where the lab goes on each host (default: /var/tmp/contention-lab-fleet; an inventory's lab_dir wins)")
    String labDir = "/var/tmp/contention-lab-fleet";

    @Option(names = "--results", paramLabel = "DIR", description = "results folder (default: results/ in the lab)")
    Path results;

    @Option(names = "--id", paramLabel = "RUN-ID", description = "run id (default: fleet-<UTC time>)")
    String id;

    /** One host's outcome: its facts (null when unreachable), its state and why. */
    record Host(String name, JsonNode facts, String state, String reason) {
        boolean runs() {
            return state.equals("checked");
        }
    }

    @Override
    public Integer call() throws Exception {
        String bad = badInput();
        if (bad != null) {
            System.err.println("lab: fleet: " + bad);
            return Lab.EXIT_BAD_INPUT;
        }
        RunFolder run = RunFolder.start(results == null ? Lab.root().resolve("results") : results,
                id == null ? RunFolder.newId("fleet") : id);
        String runId = run.finalDir().getFileName().toString();
        Path fleet = run.raw().resolve("fleet");
        Path archive = Files.createDirectories(Lab.state().resolve("fleet")).resolve(runId + ".tar.gz");
        List<String> started = new ArrayList<>();
        ChildStop.onStop(() -> {
            stopHosts(started, runId, fleet);
            try {
                Files.deleteIfExists(archive); // the stop ends the JVM: no finally below runs
            } catch (IOException e) {
                System.err.println("lab: fleet: " + archive + " left: " + e.getMessage());
            }
        });
        try {
            Files.createDirectories(fleet.resolve("check"));
            Files.copy(inventory, fleet.resolve("inventory"));
            List<Host> hosts = check(fleet);
            List<String> ok = hosts.stream().filter(Host::runs).map(Host::name).toList();
            Map<String, Host> byName = new LinkedHashMap<>();
            hosts.forEach(h -> byName.put(h.name(), h));
            if (!ok.isEmpty()) {
                pack(archive);
                started.addAll(ok);
                Path fetched = Files.createDirectories(fleet.resolve("fetched"));
                playbook("run.yml", ok, Map.of("archive", archive.toString(), "out", fetched.toString(),
                        "run_id", runId, "pair_args", pairArgs(), "limit_s", limitSeconds), fleet.resolve("run.log"));
                started.clear();
                for (String h : ok) {
                    byName.put(h, unpack(run, fetched, byName.get(h), runId));
                }
                RunFolder.deleteTree(fetched);
            }
            writeHosts(fleet, byName.values());
            List<Host> done = byName.values().stream().filter(h -> h.state().equals("ok")).toList();
            compareInputs(run, done, runId);
            Map<String, Object> m = Manifest.describe(Lab.root(), Lab.commandLine, "fleet");
            m.put("run_id", runId);
            m.put("hosts", byName.keySet());
            run.writeJson("manifest.json", m);
            Fixes.notebook(run.dir());
            Path committed = run.commit();
            for (Host h : byName.values()) {
                System.err.println("lab: fleet: " + h.name() + ": " + h.state() + (h.reason().isEmpty() ? "" : " (" + h.reason() + ")"));
            }
            System.err.println("lab: wrote " + committed.resolve("NOTEBOOK.md"));
            System.out.println(committed);
            return done.size() == byName.size() ? 0 : Lab.EXIT_FAILED;
        } catch (Exception e) {
            run.abandon();
            throw e;
        } finally {
            Files.deleteIfExists(archive);
        }
    }

    /** What is wrong with the command line, or null. */
    private String badInput() {
        if (!Files.isRegularFile(inventory)) {
            return "no inventory file " + inventory;
        }
        if (command.size() < 2 || !command.getFirst().equals("pair")) {
            return "after the inventory: -- pair FIX... [pair options] (got: " + String.join(" ", command) + ")";
        }
        if (command.contains("--results") || command.contains("--id")) {
            return "--results and --id are the fleet's own: each host's pair writes where the fleet fetches it";
        }
        if (limitSeconds < 1 || forks < 1) {
            return "--limit and --forks must be at least 1";
        }
        if (!onPath("ansible-playbook")) {
            return "ansible-playbook is not on the PATH: the fleet runs through Ansible (Debian: apt-get install ansible-core)";
        }
        return null;
    }

    /** check.yml: every host's facts, or why it cannot run the pairing. */
    private List<Host> check(Path fleet) throws IOException, InterruptedException {
        Path out = fleet.resolve("check");
        Played result = playbook("check.yml", null, Map.of("out", out.toString()), fleet.resolve("check.log"));
        List<Host> hosts = new ArrayList<>();
        for (var e : result.recap().entrySet()) {
            String name = e.getKey();
            Path facts = out.resolve(name + ".json");
            String msg = result.messages().getOrDefault(name, "no message");
            if (e.getValue().unreachable() > 0) {
                hosts.add(new Host(name, null, "unreachable", msg));
            } else if (e.getValue().failed() > 0 || !Files.isRegularFile(facts)) {
                hosts.add(new Host(name, null, "check failed", msg));
            } else {
                JsonNode f = JSON.readTree(facts.toFile());
                String why = cannotRun(f);
                hosts.add(new Host(name, f, why == null ? "checked" : "cannot run", why == null ? notes(f) : why));
            }
        }
        return hosts;
    }

    /** Why a host with these facts cannot run the pairing, or null. */
    static String cannotRun(JsonNode f) {
        if (!f.path("system").asText().equals("Linux")) {
            return "not Linux (" + f.path("system").asText("?") + ")";
        }
        if (f.path("jdk").asText().isEmpty()) {
            return "no JDK 25 or newer (JAVA_HOME, /usr/lib/jvm): ./lab needs one (e.g. temurin-25-jdk)";
        }
        long free = f.path("free_bytes").asLong();
        if (free < MIN_FREE_BYTES) {
            return String.format("%.1f GiB free where the lab goes, %d GiB needed", free / (double) (1L << 30),
                    MIN_FREE_BYTES >> 30);
        }
        return null;
    }

    /** What a host that runs leaves out: the kernel side without root, the guest's speed without KVM. */
    static String notes(JsonNode f) {
        List<String> n = new ArrayList<>();
        if (f.path("uid").asInt(-1) != 0) {
            n.add("not root: the JVM side only");
        }
        if (!f.path("kvm").asBoolean()) {
            n.add("no /dev/kvm: the guest under TCG");
        }
        return String.join("; ", n);
    }

    /** pair's arguments, each quoted for the host's shell. */
    private String pairArgs() {
        return command.subList(1, command.size()).stream().map(a -> "'" + a.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
    }

    /**
     * The lab at HEAD ({@code git archive}), and its jars and build stamp when the working tree's
     * sources are HEAD's (./lab built them for this tree just now), so that a host need not build.
     */
    private static void pack(Path archive) throws IOException, InterruptedException {
        Path root = Lab.root();
        Path tar = archive.resolveSibling(archive.getFileName() + ".tar");
        run(List.of("git", "-C", root.toString(), "archive", "--format=tar", "-o", tar.toString(), "HEAD"), null);
        List<String> status = new ArrayList<>(List.of("git", "-C", root.toString(), "status", "--porcelain", "--"));
        status.addAll(Lab.listProperty("lab.build.inputs"));
        String dirty = run(status, null);
        Path stamp = Lab.state().resolve("build.stamp");
        List<String> jars = Lab.listProperty("lab.jars");
        if (dirty.isBlank() && Files.isRegularFile(stamp) && jars.stream().allMatch(j -> Files.isRegularFile(root.resolve(j)))) {
            Path staged = Files.createTempDirectory(archive.getParent(), "stamp");
            Files.createDirectories(staged.resolve(".lab"));
            Files.copy(stamp, staged.resolve(".lab/build.stamp"));
            List<String> add = new ArrayList<>(List.of("tar", "-rf", tar.toString(), "-C", root.toString()));
            add.addAll(jars);
            run(add, null);
            run(List.of("tar", "-rf", tar.toString(), "-C", staged.toString(), ".lab/build.stamp"), null);
            RunFolder.deleteTree(staged);
        }
        run(List.of("gzip", "-f", tar.toString()), null);
        Files.move(tar.resolveSibling(tar.getFileName() + ".gz"), archive, StandardCopyOption.REPLACE_EXISTING);
    }

    /** A play's recap of one host ({@code PLAY RECAP}: its unreachable and failed tasks). */
    record Recap(int unreachable, int failed) {
    }

    /** What a playbook did: each host's recap, in the inventory's order, and the first message of each that failed. */
    record Played(Map<String, Recap> recap, Map<String, String> messages) {
    }

    private static final java.util.regex.Pattern RECAP = java.util.regex.Pattern.compile(
            "^(\\S+)\\s+: ok=\\d+\\s+changed=\\d+\\s+unreachable=(\\d+)\\s+failed=(\\d+)");
    private static final java.util.regex.Pattern FATAL = java.util.regex.Pattern.compile(
            "^fatal: \\[([^\\]]+)\\]: (?:UNREACHABLE|FAILED)! => (\\{.*\\})$");

    /**
     * Ansible's terminal (its default callback, no colour): the {@code PLAY RECAP} lines give each
     * host's unreachable and failed counts, the {@code fatal: [HOST]: ... => {json}} lines the
     * first message of a host that failed.
     */
    static Played parse(List<String> lines) {
        Map<String, Recap> recap = new LinkedHashMap<>();
        Map<String, String> messages = new LinkedHashMap<>();
        boolean inRecap = false;
        for (String line : lines) {
            if (line.startsWith("PLAY RECAP")) {
                inRecap = true;
                continue;
            }
            var fatal = FATAL.matcher(line);
            if (fatal.matches() && !messages.containsKey(fatal.group(1))) {
                String msg;
                try {
                    msg = JSON.readTree(fatal.group(2)).path("msg").asText("no message");
                } catch (IOException e) {
                    msg = fatal.group(2);
                }
                // ssh's warnings ("Permanently added ... to the list of known hosts") are not the reason
                messages.put(fatal.group(1), msg.lines().map(String::strip)
                        .map(l -> l.replaceFirst("Warning: Permanently added .* to the list of known hosts\\.", "").strip())
                        .filter(l -> !l.isEmpty()).collect(Collectors.joining(" ")));
            }
            var r = RECAP.matcher(line);
            if (inRecap && r.find()) {
                recap.put(r.group(1), new Recap(Integer.parseInt(r.group(2)), Integer.parseInt(r.group(3))));
            }
        }
        return new Played(recap, messages);
    }

    /**
     * Ansible's settings for the lab's playbooks: plain terminal output (what {@link #parse} reads),
     * no host key prompts, no retry files, and pipelining (each task's module on the ssh session's
     * stdin: a task over ssh took 0.6 s instead of 1.0 s here, the shipping 6 s instead of 9.5 s),
     * unless ANSIBLE_PIPELINING is set already (a host whose sudoers has requiretty needs it off).
     */
    private static ProcessBuilder ansible(ProcessBuilder pb) {
        pb.environment().put("ANSIBLE_NOCOLOR", "1");
        pb.environment().put("ANSIBLE_HOST_KEY_CHECKING", "False");
        pb.environment().put("ANSIBLE_RETRY_FILES_ENABLED", "False");
        pb.environment().putIfAbsent("ANSIBLE_PIPELINING", "True");
        return pb;
    }

    /**
     * ansible-playbook with one of {@code fleet/}'s playbooks on {@code hosts} (null: all), its
     * {@code extra} variables as JSON; its terminal kept in {@code log} and read ({@link #parse}).
     * A playbook that fails on some hosts still returns: the recap says which.
     */
    private Played playbook(String book, List<String> hosts, Map<String, Object> extra, Path log)
            throws IOException, InterruptedException {
        Map<String, Object> vars = new LinkedHashMap<>(extra);
        vars.put("fleet_lab_dir", labDir); // an extra var would override the inventory's lab_dir
        List<String> cmd = new ArrayList<>(List.of("ansible-playbook", "-i", inventory.toString(),
                "--forks", Integer.toString(forks), "-e", JSON.writeValueAsString(vars)));
        if (hosts != null) {
            cmd.addAll(List.of("--limit", String.join(",", hosts)));
        }
        cmd.add(Lab.root().resolve("fleet").resolve(book).toString());
        ProcessBuilder pb = ansible(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()));
        Process p = ChildStop.start(pb);
        ChildStop.waitFor(p);
        ChildStop.awaitStop(); // Ctrl-C: stop.yml runs on the stopping thread, which then exits
        Played played = parse(Files.readAllLines(log, StandardCharsets.UTF_8));
        if (played.recap().isEmpty()) {
            throw new IOException("ansible-playbook " + book + " ran no host (its terminal: " + log + ")");
        }
        return played;
    }

    /** A host's fetched run folder unpacked under {@code hosts/HOST/}; its state from how its pair ended. */
    private static Host unpack(RunFolder run, Path fetched, Host h, String runId) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(run.dir().resolve("hosts").resolve(h.name()));
        Path log = fetched.resolve(h.name() + ".log");
        if (Files.isRegularFile(log)) {
            Files.copy(log, dir.resolve("pair.log"));
        }
        Path tgz = fetched.resolve(h.name() + ".tgz");
        if (Files.isRegularFile(tgz)) {
            run(List.of("tar", "-xzf", tgz.toString(), "-C", dir.toString()), null);
        }
        Path status = fetched.resolve(h.name() + ".status");
        String how = Files.isRegularFile(status) ? Files.readString(status).strip() : "no status (the run did not start)";
        if (how.equals("ok") && Files.isRegularFile(dir.resolve(runId).resolve("summary.json"))) {
            return new Host(h.name(), h.facts(), "ok", h.reason());
        }
        String why = how.equals("ok") ? "finished without a summary.json" : how;
        String last = Files.isRegularFile(log) ? lastLine(log) : "";
        return new Host(h.name(), h.facts(), "failed", why + (last.isEmpty() ? "" : ": " + last));
    }

    private static String lastLine(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "" : lines.getLast().strip();
    }

    /** {@code raw/fleet/hosts.tsv}: every host, its state and reason, the comparison's list of who is missing and why. */
    private static void writeHosts(Path fleet, Iterable<Host> hosts) throws IOException {
        StringBuilder b = new StringBuilder("host\tstate\treason\tcores\tkernel\tarch\n");
        for (Host h : hosts) {
            JsonNode f = h.facts();
            b.append(h.name()).append('\t').append(h.state()).append('\t').append(h.reason().replace('\t', ' '))
                    .append('\t').append(f == null ? "" : f.path("cores").asText()).append('\t')
                    .append(f == null ? "" : f.path("kernel").asText()).append('\t')
                    .append(f == null ? "" : f.path("arch").asText()).append('\n');
        }
        Files.writeString(fleet.resolve("hosts.tsv"), b);
    }

    /** {@code ./lab compare}'s inputs in {@code raw/compare/}: each finished host's summary and manifest, named after the host. */
    private static void compareInputs(RunFolder run, List<Host> done, String runId) throws IOException {
        Path raw = Files.createDirectories(run.raw().resolve("compare"));
        int i = 0;
        for (Host h : done) {
            Path r = run.dir().resolve("hosts").resolve(h.name()).resolve(runId);
            String name = String.format("%02d-%s", ++i, h.name());
            Files.copy(r.resolve("summary.json"), raw.resolve(name + ".summary.json"));
            if (Files.isRegularFile(r.resolve("manifest.json"))) {
                Files.copy(r.resolve("manifest.json"), raw.resolve(name + ".manifest.json"));
            }
        }
    }

    /** Ctrl-C: stop.yml on the hosts whose run started; nothing of it left there. */
    private void stopHosts(List<String> started, String runId, Path fleet) {
        if (started.isEmpty()) {
            return;
        }
        System.err.println("lab: fleet: stopping the run on " + String.join(", ", started));
        try {
            List<String> cmd = new ArrayList<>(List.of("ansible-playbook", "-i", fleet.resolve("inventory").toString(),
                    "--limit", String.join(",", started), "-e", JSON.writeValueAsString(Map.of("run_id", runId,
                            "fleet_lab_dir", labDir)), Lab.root().resolve("fleet/stop.yml").toString()));
            ansible(new ProcessBuilder(cmd).inheritIO()).start().waitFor();
        } catch (IOException e) {
            System.err.println("lab: fleet: stop.yml: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code cmd}; its stdout; an IOException naming it when it fails. */
    private static String run(List<String> cmd, Path dir) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
        return out;
    }
}
