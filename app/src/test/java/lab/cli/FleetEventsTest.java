package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lab.results.RunFolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet/callback_plugins/lab_events.py} for real: ansible-playbook (ansible-core, which the
 * fleet needs) runs a play beside the plugin on a host it reaches (the local connection) and one
 * it cannot (a closed port), with the user's terminal set otherwise (the {@code minimal} stdout
 * callback, or the default one with the YAML result format, through an {@code ansible.cfg} found
 * by {@code ANSIBLE_CONFIG}); {@link FleetEvents} reads the same outcome from the events either
 * way: each host's result, a delegated task's under its inventory host, the reasons, the recap.
 */
class FleetEventsTest {
    @TempDir
    Path dir;

    private static final String PLAY = """
            - hosts: all
              gather_facts: false
              tasks:
                - name: reach
                  ansible.builtin.raw: "true"
                - name: the host, for ./lab fleet
                  ansible.builtin.set_fact:
                    lab: {cores: 2, machine_id: abc}
                - name: how the pair ended
                  ansible.builtin.command: echo 124
                - name: delegated, failing
                  ansible.builtin.command: sh -c 'echo why >&2; exit 3'
                  delegate_to: localhost
                  ignore_errors: true
                - name: fails
                  ansible.builtin.command: sh -c 'echo broke >&2; exit 5'
            """;

    private FleetEvents play(Map<String, String> env) throws Exception {
        assumeTrue(onPath("ansible-playbook"), "ansible-playbook is not installed (./lab test installs ansible-core)");
        Path fleet = Path.of("../fleet/callback_plugins");
        RunFolder.copyTree(fleet, dir.resolve("callback_plugins"));
        Files.writeString(dir.resolve("play.yml"), PLAY);
        Files.writeString(dir.resolve("inventory"), "here ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n"
                + "gone ansible_host=127.0.0.1 ansible_port=1\n");
        Path events = dir.resolve("events.jsonl");
        Files.deleteIfExists(events);
        ProcessBuilder pb = new ProcessBuilder(List.of("ansible-playbook", "-i", dir.resolve("inventory").toString(),
                dir.resolve("play.yml").toString())).redirectErrorStream(true).redirectOutput(dir.resolve("terminal").toFile());
        pb.environment().put("LAB_FLEET_EVENTS", events.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ansible-playbook ended");
        return FleetEvents.read(events);
    }

    private void sameOutcome(FleetEvents e) throws Exception {
        String terminal = Files.readString(dir.resolve("terminal"), StandardCharsets.UTF_8);
        assertEquals(List.of("gone", "here"), e.hosts(), terminal);
        assertEquals(List.of("gone", "here"), e.recapped());
        assertTrue(FleetEvents.message(e.unreachable("gone")).contains("Connection refused"), terminal);
        assertNull(e.unreachable("here"));
        assertEquals("abc", e.ok("here", "the host, for ./lab fleet").path("result").path("lab").path("machine_id").asText());
        assertEquals("124", e.ok("here", FleetCommand.ENDED).path("result").path("stdout").asText());
        var delegated = e.last("here", "delegated, failing");
        assertNotNull(delegated, "a delegated task's result is filed under its inventory host");
        assertEquals("localhost", delegated.path("delegated_to").asText());
        assertTrue(delegated.path("ignore_errors").asBoolean());
        assertEquals("exit 3: why", FleetEvents.message(delegated));
        var failed = e.failed("here");
        assertEquals("fails", failed.path("task").asText(), "the first failure not ignored");
        assertEquals("exit 5: broke", FleetEvents.message(failed));
        assertFalse(terminal.isBlank());
    }

    @Test
    void theMinimalTerminalGivesTheSameEvents() throws Exception {
        FleetEvents e = play(Map.of("ANSIBLE_STDOUT_CALLBACK", "minimal"));
        sameOutcome(e);
        assertFalse(Files.readString(dir.resolve("terminal")).contains("PLAY RECAP"), "the terminal was not the default");
    }

    @Test
    void anAnsibleCfgWithTheYamlResultFormatGivesTheSameEvents() throws Exception {
        Path cfg = Files.writeString(dir.resolve("ansible.cfg"), "[defaults]\ncallback_result_format = yaml\n");
        FleetEvents e = play(Map.of("ANSIBLE_CONFIG", cfg.toString()));
        sameOutcome(e);
        String terminal = Files.readString(dir.resolve("terminal"));
        assertTrue(terminal.contains("msg: ") && !terminal.contains("\"msg\":"), "the terminal was YAML: " + terminal);
    }

    @Test
    void hostsSortNaturally() {
        List<String> names = new ArrayList<>(List.of("host-10", "host-2", "a", "host-1", "host-02x"));
        names.sort(FleetEvents::byName);
        assertEquals(List.of("a", "host-1", "host-2", "host-02x", "host-10"), names);
    }

    @Test
    void aLineThatIsNotAnEventIsAnErrorNamingIt() throws Exception {
        Path f = Files.writeString(dir.resolve("bad.jsonl"), "{\"event\": \"ok\", \"host\": \"h\"}\nnot json\n");
        var e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, () -> FleetEvents.read(f));
        assertTrue(e.getMessage().startsWith(f + ":2: not an event"), e.getMessage());
    }

    private static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
