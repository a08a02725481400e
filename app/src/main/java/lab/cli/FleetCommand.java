package lab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Console;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
 * {@code lab fleet [ansible-playbook options] INVENTORY -- pair FIX... [pair options]}: the same
 * pairing on every host of an Ansible inventory, gathered into one comparison. Ansible
 * ({@code ansible-core}) does the work, with the playbooks in {@code fleet/}, and says what
 * happened as events ({@code fleet/callback_plugins/lab_events.py}, read by {@link FleetEvents});
 * its terminal, in the user's stdout callback, is kept in the run's log and never read.
 * <ol>
 * <li>{@code check.yml}: each host's system, cores, CPU, kernel, machine id, KVM, user and free
 *     disk, before anything starts; a host that is unreachable or cannot run the pairing is left
 *     out, with its reason; two inventory names for one machine (one machine id) are refused,
 *     exit 2, before anything is made, unless {@code --allow-shared-host};</li>
 * <li>{@code run.yml}: the lab ({@link FleetArchive}) unpacked on each host that passed, {@code
 *     ./lab pair} run there, each host at its own pace ({@code --forks} at once), each within
 *     {@code --time-limit} seconds; a host that dies or is cut off, or reaches the limit, is
 *     recorded so and costs no other host; whatever of its run folder can be fetched is, and
 *     nothing of the run is left on a host unless its cleanup says what is left (then its folder,
 *     with the lab's device registry, stays);</li>
 * <li>{@code stop.yml} on every host that was cut off: one that came back is cleaned;</li>
 * <li>here: each host's run folder under {@code hosts/HOST/} of one {@code results/fleet-<time>/},
 *     every host in {@code raw/fleet/hosts.tsv}, and the comparison of those that finished.</li>
 * </ol>
 * Options that Ansible has mean what they mean there and go to every ansible-playbook the fleet
 * runs: {@code -l/--limit}, {@code -f/--forks}, {@code -u}, {@code -b/--become}, {@code
 * --become-user}, {@code --become-method}, {@code -K}, {@code -e}, {@code -v}, {@code
 * --private-key}, {@code --vault-password-file}, {@code -T/--timeout} (ssh's connection
 * timeout); the user's {@code ansible.cfg} and environment are honoured, host key checking
 * included. Ctrl-C stops the playbook and runs {@code stop.yml} on every host whose run started.
 * Exit 0 when every host's pairing finished, 1 when one did not (the folder says which and why),
 * 2 on bad input (nothing made).
 */
@Command(name = "fleet", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run one pairing on every host of an Ansible inventory.",
                "./lab fleet [options] INVENTORY -- pair FIX... [pair options], through Ansible",
                "(ansible-core): checks each host first (reachable, Linux, free disk, one machine",
                "per name; root, KVM), ships this commit to the hosts that can run it, runs",
                "./lab pair there, each host at its own pace, fetches each run folder into",
                "results/fleet-<UTC time>/hosts/HOST/ and writes one comparison; a host that",
                "failed, was cut off or reached --time-limit is listed with its reason.",
                "-- profile [profile options] gathers each host's cost profile instead.",
                "Ansible's options mean what they mean in ansible-playbook."})
final class FleetCommand implements Callable<Integer> {
    /** Free bytes a host needs where the lab goes: the lab, its jars and a run folder. */
    static final long MIN_FREE_BYTES = 2L << 30;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The names of run.yml's and stop-tasks.yml's tasks whose results say how a host's run ended. */
    static final String ENDED = "how the pair ended";
    static final String CLEANED = "the run's processes killed, its devices and folder gone";

    @Parameters(paramLabel = "INVENTORY -- pair FIX...",
            description = "an Ansible inventory (file, directory, plugin file or host,list), unless -i gave it; then,"
                    + " after --: pair, the fixes and pair's options (or profile and its options)")
    List<String> positional = new ArrayList<>();

    @Option(names = {"-i", "--inventory"}, paramLabel = "INVENTORY", description = "Ansible's: an inventory (repeatable)")
    List<String> inventories = new ArrayList<>();

    @Option(names = {"-l", "--limit"}, paramLabel = "PATTERN", description = "Ansible's: run on the hosts the pattern selects")
    String limit;

    @Option(names = "--time-limit", paramLabel = "SECONDS", description = "each host's time limit for its pairing (default: 7200)")
    int timeLimit = 7200;

    @Option(names = {"-f", "--forks"}, paramLabel = "N", description = "Ansible's: hosts worked on at once (default: 10)")
    int forks = 10;

    @Option(names = {"-T", "--timeout"}, paramLabel = "SECONDS", description = "Ansible's: ssh's connection timeout")
    Integer connectTimeout;

    @Option(names = {"-u", "--user"}, paramLabel = "REMOTE_USER", description = "Ansible's: connect as this user")
    String user;

    @Option(names = {"-b", "--become"}, description = "Ansible's: run the tasks as root (become), which the kernel side needs")
    boolean become;

    @Option(names = "--become-user", paramLabel = "USER", description = "Ansible's: become this user")
    String becomeUser;

    @Option(names = "--become-method", paramLabel = "METHOD", description = "Ansible's: sudo, su, ...")
    String becomeMethod;

    @Option(names = {"-K", "--ask-become-pass"}, description = "Ansible's: ask for the become password (once, for every playbook)")
    boolean askBecomePass;

    @Option(names = {"-e", "--extra-vars"}, paramLabel = "VARS", description = "Ansible's: extra variables (repeatable)")
    List<String> extraVars = new ArrayList<>();

    @Option(names = "-v", description = "Ansible's: more verbose (repeatable: -vvv); into the run's Ansible logs")
    boolean[] verbose = new boolean[0];

    @Option(names = {"--private-key", "--key-file"}, paramLabel = "FILE", description = "Ansible's: ssh's private key")
    String privateKey;

    @Option(names = {"--vault-password-file", "--vault-pass-file"}, paramLabel = "FILE",
            description = "Ansible's: the vault password file (repeatable)")
    List<String> vaultPasswordFiles = new ArrayList<>();

    @Option(names = "--allow-shared-host", description = "run hosts that are one machine (one machine id) anyway;"
            + " the notebook says they shared its CPUs")
    boolean allowSharedHost;

    @Option(names = "--lab-dir", paramLabel = "DIR",
            description = "where the lab goes on each host (default: /var/tmp/contention-lab-fleet; a host's lab_dir wins)")
    String labDir = "/var/tmp/contention-lab-fleet";

    @Option(names = "--results", paramLabel = "DIR", description = "results folder (default: results/ in the lab)")
    Path results;

    @Option(names = "--id", paramLabel = "RUN-ID", description = "run id (default: fleet-<UTC time>)")
    String id;

    /** pair's command line: after the inventory (or all of the positionals with -i). */
    private List<String> command = List.of();
    /** The file holding -K's password for the playbooks (mode 0600), or null. */
    private Path becomeVars;

    /**
     * One host: its facts (check.yml's {@code lab}; null when it never answered), its state and
     * why, what its cleanup left ("" nothing), the hosts that are the same machine.
     */
    record Host(String name, JsonNode facts, String state, String reason, String left, List<String> sharesWith) {
        Host(String name, JsonNode facts, String state, String reason) {
            this(name, facts, state, reason, "", List.of());
        }

        boolean runs() {
            return state.equals("checked");
        }

        Host with(String newState, String newReason) {
            return new Host(name, facts, newState, newReason, left, sharesWith);
        }

        Host leaving(String what) {
            return new Host(name, facts, state, reason, what, sharesWith);
        }
    }

    @Override
    public Integer call() throws Exception {
        String bad = badInput();
        if (bad != null) {
            System.err.println("lab: fleet: " + bad);
            return Lab.EXIT_BAD_INPUT;
        }
        Path work = Files.createTempDirectory(Files.createDirectories(Lab.state().resolve("fleet")), "fleet-");
        try {
            if (askBecomePass && (bad = askBecomePassword(work)) != null) {
                System.err.println("lab: fleet: " + bad);
                return Lab.EXIT_BAD_INPUT;
            }
            return fleet(work);
        } finally {
            RunFolder.deleteTree(work);
        }
    }

    private int fleet(Path work) throws Exception {
        Path checkDir = Files.createDirectories(work.resolve("check"));
        Map<String, Host> hosts = check(checkDir);
        if (hosts.isEmpty()) {
            System.err.println("lab: fleet: no host of " + String.join(", ", inventories)
                    + (limit == null ? "" : " matches --limit " + limit) + " (Ansible's terminal: nothing was made)");
            return Lab.EXIT_BAD_INPUT;
        }
        String shared = sameMachines(hosts);
        if (shared != null && !allowSharedHost) {
            System.err.println("lab: fleet: " + shared + ": refused, nothing made (two names for one machine would share its"
                    + " CPUs and compare it with itself; --allow-shared-host runs them anyway)");
            return Lab.EXIT_BAD_INPUT;
        }
        RunFolder run = RunFolder.start(results == null ? Lab.root().resolve("results") : results,
                id == null ? RunFolder.newId("fleet") : id);
        String runId = run.finalDir().getFileName().toString();
        Path fleet = Files.createDirectories(run.raw().resolve("fleet"));
        Path archive = work.resolve(runId + ".tar.gz");
        List<String> started = new ArrayList<>();
        ChildStop.onStop(() -> {
            stopHosts(started, runId, fleet.resolve("stop-on-signal"));
            try {
                RunFolder.deleteTree(work); // the stop ends the JVM: no finally runs
            } catch (IOException e) {
                System.err.println("lab: fleet: " + work + " left: " + e.getMessage());
            }
        });
        try {
            RunFolder.copyTree(checkDir, fleet.resolve("check"));
            writeInventory(fleet, hosts.keySet());
            List<String> ok = hosts.values().stream().filter(Host::runs).map(Host::name).toList();
            if (!ok.isEmpty()) {
                FleetArchive shipped = profiling() ? FleetArchive.pack(archive, List.of(), ProfileCommand.inputPaths(Lab.root().resolve("results")))
                        : FleetArchive.pack(archive, fixes());
                System.err.println("lab: fleet: shipping " + shipped.describe());
                Files.writeString(fleet.resolve("shipped.txt"), shipped.describe() + "\n");
                started.addAll(ok);
                Path fetched = Files.createDirectories(work.resolve("fetched"));
                Path runDir = Files.createDirectories(fleet.resolve("run"));
                FleetEvents events = playbook("run.yml", ok, Map.of("archive", archive.toString(), "out", fetched.toString(),
                        "run_id", runId, "lab_command", command.getFirst(), "pair_args", pairArgs(), "time_limit_s", timeLimit), runDir);
                started.clear();
                for (String h : ok) {
                    hosts.put(h, ended(run, fetched, hosts.get(h), events, runId));
                }
                cleanCutOff(run, hosts, runId, fleet);
            }
            writeHosts(fleet, hosts.values());
            List<Host> done = hosts.values().stream().filter(h -> h.state().equals("ok")).toList();
            if (profiling()) {
                profiles(run, done, runId);
            } else {
                compareInputs(run, done, runId);
            }
            Map<String, Object> m = Manifest.describe(Lab.root(), Lab.commandLine, "fleet");
            m.put("run_id", runId);
            m.put("hosts", hosts.keySet());
            run.writeJson("manifest.json", m);
            Fixes.notebook(run.dir());
            Path committed = run.commit();
            for (Host h : hosts.values()) {
                System.err.println("lab: fleet: " + h.name() + ": " + h.state() + (h.reason().isEmpty() ? "" : " (" + h.reason() + ")")
                        + (h.left().isEmpty() ? "" : "; left: " + h.left()));
            }
            System.err.println("lab: wrote " + committed.resolve("NOTEBOOK.md"));
            System.out.println(committed);
            return done.size() == hosts.size() ? 0 : Lab.EXIT_FAILED;
        } catch (Exception e) {
            run.abandon();
            throw e;
        }
    }

    /** What is wrong with the command line, or null; splits the positionals into inventory and pair's command. */
    private String badInput() {
        List<String> rest = positional;
        if (inventories.isEmpty()) {
            if (rest.isEmpty()) {
                return "needs an inventory: ./lab fleet INVENTORY -- pair FIX... (or -i INVENTORY)";
            }
            inventories.add(rest.getFirst());
            rest = rest.subList(1, rest.size());
        }
        command = List.copyOf(rest);
        for (String inv : inventories) {
            if (!inv.contains(",") && !Files.exists(Path.of(inv))) {
                return "no inventory " + inv + " (a file, a directory, an inventory plugin's file, or host,list as in Ansible)";
            }
        }
        if (!(command.size() >= 2 && command.getFirst().equals("pair") || !command.isEmpty() && command.getFirst().equals("profile"))) {
            return "after the inventory: -- pair FIX... [pair options], or -- profile [profile options] (got: " + String.join(" ", command)
                    + ")";
        }
        if (profiling() && command.contains("--profile")) {
            return "-- profile --profile FILE: a host has no FILE of the controller's; give it to ./lab profile here, with the hosts' profile.json";
        }
        if (command.contains("--results") || command.contains("--id")) {
            return "--results and --id are the fleet's own: each host's pair writes where the fleet fetches it";
        }
        if (timeLimit < 1 || forks < 1) {
            return "--time-limit and --forks must be at least 1";
        }
        if (!onPath("ansible-playbook")) {
            return "ansible-playbook is not on the PATH: the fleet runs through Ansible (Debian: apt-get install ansible-core)";
        }
        if (!onPath("setsid")) {
            return "setsid is not on the PATH (util-linux): Ansible runs without the terminal, so that ssh cannot prompt";
        }
        return null;
    }

    /** -K: the become password, asked once here and handed to each playbook in a file only this user reads. */
    private String askBecomePassword(Path work) throws IOException {
        Console console = System.console();
        if (console == null) {
            return "-K asks for the become password on a terminal, and there is none (set ansible_become_password in a vault,"
                    + " or use a sudoer without a password)";
        }
        char[] pw = console.readPassword("BECOME password: ");
        if (pw == null) {
            return "-K: no password given";
        }
        becomeVars = work.resolve("become.json");
        Files.createFile(becomeVars, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(becomeVars, JSON.writeValueAsString(Map.of("ansible_become_password", new String(pw))));
        java.util.Arrays.fill(pw, ' ');
        return null;
    }

    /** Whether the hosts run {@code ./lab profile} rather than a pairing. */
    private boolean profiling() {
        return command.getFirst().equals("profile");
    }

    /**
     * {@code raw/profiles/HOST.json}: each finished host's profile.json, which {@code ./lab profile
     * --profile} takes here to predict the fixes on that host (the host's own notebook, with its
     * at-scale sections, is in {@code hosts/HOST/RUN-ID/}).
     */
    private static void profiles(RunFolder run, List<Host> done, String runId) throws IOException {
        Path raw = Files.createDirectories(run.raw().resolve("profiles"));
        for (Host h : done) {
            Path p = run.dir().resolve("hosts").resolve(h.name()).resolve(runId).resolve("profile.json");
            if (Files.isRegularFile(p)) {
                Files.copy(p, raw.resolve(h.name() + ".json"));
            }
        }
    }

    /** The fixes named on pair's command line (its arguments before the first option). */
    private List<String> fixes() {
        List<String> f = new ArrayList<>();
        for (String a : command.subList(1, command.size())) {
            if (a.startsWith("-")) {
                break;
            }
            f.add(a);
        }
        return f;
    }

    /** check.yml: every host the inventory (and --limit) names, with its facts or why it cannot run the pairing. */
    private Map<String, Host> check(Path out) throws IOException, InterruptedException {
        FleetEvents e = playbook("check.yml", null, Map.of(), out);
        Map<String, Host> hosts = new LinkedHashMap<>();
        for (String name : e.hosts()) {
            JsonNode un = e.unreachable(name);
            JsonNode failed = e.failed(name);
            JsonNode facts = e.ok(name, "the host, for ./lab fleet");
            if (un != null) {
                hosts.put(name, new Host(name, null, "unreachable", unreachableWhy(un)));
            } else if (failed != null || facts == null) {
                hosts.put(name, new Host(name, null, "check failed", failed == null ? "no facts"
                        : failed.path("task").asText() + ": " + FleetEvents.message(failed)));
            } else {
                JsonNode f = facts.path("result").path("lab");
                String why = cannotRun(f);
                hosts.put(name, new Host(name, f, why == null ? "checked" : "cannot run", why == null ? notes(f) : why));
            }
        }
        return hosts;
    }

    /** An unreachable host's reason; for an unknown host key, what to do about it. */
    static String unreachableWhy(JsonNode event) {
        String msg = FleetEvents.message(event);
        if (msg.contains("Host key verification failed") || msg.contains("REMOTE HOST IDENTIFICATION HAS CHANGED")) {
            return msg + " (ssh does not know this host's key, and host key checking is on: check the key and add it to"
                    + " known_hosts, e.g. ssh-keyscan -p PORT HOST >>~/.ssh/known_hosts, or set host_key_checking = False"
                    + " in ansible.cfg)";
        }
        return msg;
    }

    /** Two or more names for one machine (one machine id), in words; null when every host is its own. */
    String sameMachines(Map<String, Host> hosts) {
        Map<String, List<String>> byId = new LinkedHashMap<>();
        for (Host h : hosts.values()) {
            String mid = h.facts() == null ? "" : h.facts().path("machine_id").asText("");
            if (!mid.isEmpty()) {
                byId.computeIfAbsent(mid, k -> new ArrayList<>()).add(h.name());
            }
        }
        List<String> groups = new ArrayList<>();
        for (var g : byId.entrySet()) {
            if (g.getValue().size() > 1) {
                groups.add(String.join(" and ", g.getValue()) + " are one machine (machine id " + g.getKey() + ")");
                for (String n : g.getValue()) {
                    Host h = hosts.get(n);
                    List<String> others = g.getValue().stream().filter(o -> !o.equals(n)).toList();
                    hosts.put(n, new Host(h.name(), h.facts(), h.state(), h.reason(), h.left(), others));
                }
            }
        }
        return groups.isEmpty() ? null : String.join("; ", groups);
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

    /** raw/fleet/inventory.json: where the inventory is (used there, not copied), the --limit, and the hosts it gave. */
    private void writeInventory(Path fleet, Iterable<String> names) throws IOException {
        Map<String, Object> inv = new LinkedHashMap<>();
        inv.put("inventory", inventories.stream().map(i -> i.contains(",") && !Files.exists(Path.of(i)) ? i
                : Path.of(i).toAbsolutePath().normalize().toString()).toList());
        inv.put("limit", limit);
        List<String> hosts = new ArrayList<>();
        names.forEach(hosts::add);
        inv.put("hosts", hosts);
        Files.writeString(fleet.resolve("inventory.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(inv) + "\n");
    }

    /** The options every ansible-playbook of the fleet gets: the user's inventory and Ansible options. */
    private List<String> ansibleOptions() {
        List<String> o = new ArrayList<>();
        inventories.forEach(i -> o.addAll(List.of("-i", i)));
        o.addAll(List.of("--forks", Integer.toString(forks)));
        if (connectTimeout != null) {
            o.addAll(List.of("--timeout", connectTimeout.toString()));
        }
        if (user != null) {
            o.addAll(List.of("--user", user));
        }
        if (become) {
            o.add("--become");
        }
        if (becomeUser != null) {
            o.addAll(List.of("--become-user", becomeUser));
        }
        if (becomeMethod != null) {
            o.addAll(List.of("--become-method", becomeMethod));
        }
        if (privateKey != null) {
            o.addAll(List.of("--private-key", privateKey));
        }
        vaultPasswordFiles.forEach(v -> o.addAll(List.of("--vault-password-file", v)));
        extraVars.forEach(v -> o.addAll(List.of("--extra-vars", v)));
        if (becomeVars != null) {
            o.addAll(List.of("--extra-vars", "@" + becomeVars));
        }
        if (verbose.length > 0) {
            o.add("-" + "v".repeat(verbose.length));
        }
        return o;
    }

    /**
     * ansible-playbook with one of {@code fleet/}'s playbooks on the hosts of the inventory under
     * the user's --limit, or on {@code hosts} (a subset of them), its {@code extra} variables last
     * (they win); without a terminal (setsid: ssh cannot prompt for a host key; it fails, naming
     * the host). Its events ({@code events.jsonl}) and terminal ({@code ansible.log}) are kept in
     * {@code dir}. A playbook that fails on some hosts still returns: the events say which.
     */
    private FleetEvents playbook(String book, List<String> hosts, Map<String, Object> extra, Path dir)
            throws IOException, InterruptedException {
        Map<String, Object> vars = new LinkedHashMap<>(extra);
        vars.put("fleet_lab_dir", labDir); // an extra var would override the inventory's lab_dir
        List<String> cmd = new ArrayList<>(List.of("setsid", "-w", "ansible-playbook"));
        cmd.addAll(ansibleOptions());
        cmd.addAll(List.of("--extra-vars", JSON.writeValueAsString(vars)));
        if (hosts != null) {
            cmd.addAll(List.of("--limit", String.join(",", hosts)));
        } else if (limit != null) {
            cmd.addAll(List.of("--limit", limit));
        }
        cmd.add(Lab.root().resolve("fleet").resolve(book).toString());
        Path events = dir.resolve("events.jsonl");
        Path log = dir.resolve("ansible.log");
        ProcessBuilder pb = withoutLabEnvironment(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()));
        pb.environment().put("LAB_FLEET_EVENTS", events.toAbsolutePath().toString());
        Process p = ChildStop.start(pb);
        int rc = ChildStop.waitFor(p);
        ChildStop.awaitStop(); // Ctrl-C: stop.yml runs on the stopping thread, which then exits
        relativeToLab(log);
        FleetEvents e = FleetEvents.read(events);
        if (e.hosts().isEmpty() && rc != 0) {
            throw new IOException("ansible-playbook " + book + " failed before any host (exit " + rc + "): "
                    + lastLines(log, 5) + " (its terminal: " + log + ")");
        }
        return e;
    }

    /**
     * A host's end in run.yml's events, and its fetched run folder unpacked under {@code hosts/HOST/}
     * (the pair's terminal, its run folder, partial or whole, its cleanup's output).
     */
    private Host ended(RunFolder run, Path fetched, Host h, FleetEvents e, String runId) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(run.dir().resolve("hosts").resolve(h.name()));
        Path log = fetched.resolve(h.name() + ".log");
        if (Files.isRegularFile(log)) {
            Files.copy(log, dir.resolve("pair.log"));
        }
        Path tgz = fetched.resolve(h.name() + ".tgz");
        if (Files.isRegularFile(tgz)) {
            FleetArchive.run(List.of("tar", "-xzf", tgz.toString(), "-C", dir.toString()));
        }
        Host out = h.with("failed", "no status (the run did not start)");
        JsonNode rcEvent = e.ok(h.name(), ENDED);
        JsonNode un = e.unreachable(h.name());
        JsonNode failed = e.failed(h.name());
        if (rcEvent != null) {
            int rc = Integer.parseInt(rcEvent.path("result").path("stdout").asText("-1").strip());
            String last = Files.isRegularFile(log) ? lastLines(log, 1) : "";
            if (rc == 0 && Files.isRegularFile(dir.resolve(runId).resolve("summary.json"))) {
                out = h.with("ok", h.reason());
            } else if (rc == 124 || rc == 137) {
                out = h.with("timed out", "timed out after " + timeLimit + " s");
            } else {
                out = h.with("failed", (rc == 0 ? "finished without a summary.json" : "exit " + rc) + (last.isEmpty() ? "" : ": " + last));
            }
        } else if (un != null) {
            out = h.with("unreachable during the run", un.path("task").asText() + ": " + unreachableWhy(un));
        } else if (failed != null) {
            out = h.with("failed", failed.path("task").asText() + ": " + FleetEvents.message(failed));
        }
        JsonNode cleaned = e.last(h.name(), CLEANED);
        return cleaned == null ? out.leaving("?") : out.leaving(left(cleaned, dir));
    }

    /** What stop-tasks.yml's result says is left ("" nothing), its output kept in {@code dir/cleanup.log}. */
    static String left(JsonNode cleaned, Path dir) throws IOException {
        String stdout = cleaned.path("result").path("stdout").asText("");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("cleanup.log"), stdout.isEmpty() ? FleetEvents.message(cleaned) + "\n" : stdout + "\n");
        if (cleaned.path("event").asText().equals("unreachable")) {
            return "unknown: unreachable when cleaning up (" + FleetEvents.message(cleaned)
                    + "); the run's folder may remain in its lab_dir";
        }
        if (!cleaned.path("event").asText().equals("ok")) {
            return "unknown: the cleanup failed (" + FleetEvents.message(cleaned) + "); the run's folder may remain in its lab_dir";
        }
        String last = stdout.lines().filter(l -> l.startsWith("left: ")).reduce((a, b) -> b).orElse("left: ? (no answer)");
        String what = last.substring("left: ".length());
        return what.startsWith("nothing") ? "" : what;
    }

    /**
     * The hosts whose cleanup did not run (cut off during the run): stop.yml on them once more; one
     * that came back is cleaned, one still away is marked so (its folder may remain there).
     */
    private void cleanCutOff(RunFolder run, Map<String, Host> hosts, String runId, Path fleet) throws IOException, InterruptedException {
        List<String> away = hosts.values().stream().filter(h -> h.left().equals("?")).map(Host::name).toList();
        if (away.isEmpty()) {
            return;
        }
        System.err.println("lab: fleet: cleaning up after " + String.join(", ", away) + " (cut off during the run)");
        Path dir = Files.createDirectories(fleet.resolve("stop"));
        FleetEvents e = playbook("stop.yml", away, Map.of("run_id", runId), dir);
        for (String n : away) {
            Host h = hosts.get(n);
            JsonNode cleaned = e.last(n, CLEANED);
            JsonNode un = e.unreachable(n);
            String left = cleaned != null ? left(cleaned, run.dir().resolve("hosts").resolve(n))
                    : "unknown: unreachable when cleaning up (" + (un == null ? "no answer" : FleetEvents.message(un))
                    + "); the run's folder may remain in its lab_dir";
            hosts.put(n, h.leaving(left));
        }
    }

    private static String lastLines(Path log, int n) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
        return lines.subList(Math.max(0, lines.size() - n), lines.size()).stream().map(String::strip).collect(Collectors.joining(" "));
    }

    /** {@code raw/fleet/hosts.tsv}: every host, its state and reason, what it is, what its cleanup left. */
    static void writeHosts(Path fleet, Iterable<Host> hosts) throws IOException {
        StringBuilder b = new StringBuilder(
                "host\tstate\treason\tcores\tkernel\tarch\tcpu_model\tvirt\troot\tmachine_id\tboot_id\tshares_with\tleft\n");
        for (Host h : hosts) {
            JsonNode f = h.facts();
            List<String> row = new ArrayList<>(List.of(h.name(), h.state(), h.reason()));
            if (f == null) {
                row.addAll(List.of("", "", "", "", "", "", "", ""));
            } else {
                row.addAll(List.of(f.path("cores").asText(), f.path("kernel").asText(), f.path("arch").asText(),
                        f.path("cpu_model").asText(), f.path("kvm").asBoolean() ? "kvm" : "tcg",
                        f.path("uid").asInt(-1) == 0 ? "yes" : "no", f.path("machine_id").asText(), f.path("boot_id").asText()));
            }
            row.add(String.join(",", h.sharesWith()));
            row.add(h.left());
            b.append(row.stream().map(c -> c.replace('\t', ' ').replace('\n', ' ')).collect(Collectors.joining("\t"))).append('\n');
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
    private void stopHosts(List<String> started, String runId, Path dir) {
        if (started.isEmpty()) {
            return;
        }
        System.err.println("lab: fleet: stopping the run on " + String.join(", ", started));
        try {
            Files.createDirectories(dir);
            List<String> cmd = new ArrayList<>(List.of("setsid", "-w", "ansible-playbook"));
            cmd.addAll(ansibleOptions());
            cmd.addAll(List.of("--extra-vars", JSON.writeValueAsString(Map.of("run_id", runId, "fleet_lab_dir", labDir)),
                    "--limit", String.join(",", started), Lab.root().resolve("fleet/stop.yml").toString()));
            ProcessBuilder pb = withoutLabEnvironment(new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("ansible.log").toFile()));
            pb.environment().put("LAB_FLEET_EVENTS", dir.resolve("events.jsonl").toString());
            pb.start().waitFor();
            relativeToLab(dir.resolve("ansible.log"));
            FleetEvents e = FleetEvents.read(dir.resolve("events.jsonl"));
            for (String h : started) {
                JsonNode cleaned = e.last(h, CLEANED);
                String left = cleaned == null ? "unknown (no answer)" : left(cleaned, dir.resolve(h));
                System.err.println("lab: fleet: " + h + ": stopped; left: " + (left.isEmpty() ? "nothing" : left));
            }
        } catch (IOException e) {
            System.err.println("lab: fleet: stop.yml: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Ansible's terminal, kept in the run folder, with the lab's own path on this machine written
     * as {@code ./} (it names the playbooks it includes by their absolute path: a committed run
     * would carry the controller's layout).
     */
    static void relativeToLab(Path log) throws IOException {
        String text = Files.readString(log, StandardCharsets.ISO_8859_1); // bytes kept as they are
        String root = Lab.root() + "/";
        if (text.contains(root)) {
            Files.writeString(log, text.replace(root, "./"), StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * Ansible's environment is the user's, less this lab's own ({@code LAB_STATE}, {@code
     * LAB_ROOT}, {@code LAB_JDK}, ...): a host reached through the local connection inherits it,
     * and its lab would otherwise build into this one's state folder.
     */
    private static ProcessBuilder withoutLabEnvironment(ProcessBuilder pb) {
        pb.environment().keySet().removeIf(k -> k.startsWith("LAB_"));
        return pb;
    }

    private static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
