package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FleetCommand}'s decisions from a host's facts (check.yml's {@code lab} fact), and its
 * refusals of a bad command line, which make nothing. The events it reads are {@link
 * FleetEventsTest}'s; the fleet itself, through Ansible on namespaced hosts, is kernel-scripts
 * tests 045, 046, 050 and 051.
 */
class FleetCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream oldErr;

    @TempDir
    Path dir;

    @BeforeEach
    void captureErr() {
        oldErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreErr() {
        System.setErr(oldErr);
    }

    private static JsonNode facts(String system, long free, int uid, boolean kvm, String jdk) throws Exception {
        return JSON.readTree("{\"system\": \"" + system + "\", \"free_bytes\": " + free + ", \"uid\": " + uid
                + ", \"kvm\": " + kvm + ", \"jdk\": \"" + jdk + "\"}");
    }

    @Test
    void aHostThatCannotRunThePairingIsToldWhy() throws Exception {
        assertNull(FleetCommand.cannotRun(facts("Linux", 10L << 30, 0, true, "/usr/lib/jvm/j25")));
        assertEquals("not Linux (Darwin)", FleetCommand.cannotRun(facts("Darwin", 10L << 30, 0, true, "/j")));
        assertEquals("1.0 GiB free where the lab goes, 2 GiB needed",
                FleetCommand.cannotRun(facts("Linux", 1L << 30, 0, true, "/j")));
        assertTrue(FleetCommand.cannotRun(facts("Linux", 10L << 30, 0, true, "")).startsWith("no JDK 25 or newer"));
    }

    @Test
    void twoNamesForOneMachineAreFoundByItsMachineId() throws Exception {
        Map<String, FleetCommand.Host> hosts = new LinkedHashMap<>();
        for (String[] h : new String[][] {{"a", "m1"}, {"b", "m2"}, {"c", "m1"}, {"gone", null}}) {
            JsonNode f = h[1] == null ? null : JSON.readTree("{\"machine_id\": \"" + h[1] + "\"}");
            hosts.put(h[0], new FleetCommand.Host(h[0], f, f == null ? "unreachable" : "checked", ""));
        }
        assertEquals("a and c are one machine (machine id m1)", new FleetCommand().sameMachines(hosts));
        assertEquals(List.of("c"), hosts.get("a").sharesWith());
        assertEquals(List.of("a"), hosts.get("c").sharesWith());
        assertEquals(List.of(), hosts.get("b").sharesWith());
        hosts.remove("c");
        assertNull(new FleetCommand().sameMachines(hosts));
    }

    /** stop-tasks.yml's last line says what is left; its whole output is kept beside the host's run. */
    @Test
    void whatACleanupLeftIsItsLastLineAndItsOutputIsKept() throws Exception {
        JsonNode none = JSON.readTree("{\"event\": \"ok\", \"result\": {\"stdout\": \"lab-kernel: removed zram0\\nleft: nothing\"}}");
        assertEquals("", FleetCommand.left(none, dir.resolve("a")));
        assertEquals("lab-kernel: removed zram0\nleft: nothing\n", Files.readString(dir.resolve("a/cleanup.log")));
        JsonNode some = JSON.readTree("{\"event\": \"ok\", \"result\": {\"stdout\": \"cleanup: exit 1\\nleft: devices in the"
                + " registry /x/.lab/kernel/registry: zram zram1 (kept /x)\"}}");
        assertEquals("devices in the registry /x/.lab/kernel/registry: zram zram1 (kept /x)", FleetCommand.left(some, dir.resolve("b")));
        JsonNode away = JSON.readTree("{\"event\": \"unreachable\", \"result\": {\"msg\": \"ssh: connect to host h: No route to host\"}}");
        assertTrue(FleetCommand.left(away, dir.resolve("c")).startsWith("unknown: unreachable when cleaning up (ssh: connect to host h:"
                + " No route to host)"));
        JsonNode silent = JSON.readTree("{\"event\": \"ok\", \"result\": {\"stdout\": \"\"}}");
        assertEquals("? (no answer)", FleetCommand.left(silent, dir.resolve("d")));
    }

    /** Ansible names the playbooks it includes by their absolute path: the run folder's copy says ./ for the lab. */
    @Test
    void ansiblesTerminalNamesTheLabAsDotSlash() throws Exception {
        String old = System.getProperty("lab.root");
        System.setProperty("lab.root", "/some/where/lab");
        try {
            Path log = Files.writeString(dir.resolve("ansible.log"), "included: /some/where/lab/fleet/stop-tasks.yml for h\n"
                    + "/some/where/labx stays\n");
            FleetCommand.relativeToLab(log);
            assertEquals("included: ./fleet/stop-tasks.yml for h\n/some/where/labx stays\n", Files.readString(log));
        } finally {
            if (old == null) {
                System.clearProperty("lab.root");
            } else {
                System.setProperty("lab.root", old);
            }
        }
    }

    @Test
    void anUnknownHostKeySaysWhatToDo() throws Exception {
        JsonNode e = JSON.readTree("{\"event\": \"unreachable\", \"host\": \"h\", \"result\": {\"msg\":"
                + " \"Failed to connect to the host via ssh: Host key verification failed.\"}}");
        String why = FleetCommand.unreachableWhy(e);
        assertTrue(why.startsWith("Failed to connect to the host via ssh: Host key verification failed."), why);
        assertTrue(why.contains("known_hosts") && why.contains("host_key_checking = False"), why);
    }

    @Test
    void whatARunningHostLeavesOutIsNoted() throws Exception {
        assertEquals("", FleetCommand.notes(facts("Linux", 10L << 30, 0, true, "/j")));
        assertEquals("not root: the JVM side only; no /dev/kvm: the guest under TCG",
                FleetCommand.notes(facts("Linux", 10L << 30, 1000, false, "/j")));
    }

    @Test
    void aBadCommandLineExits2AndMakesNothing() throws Exception {
        Path results = dir.resolve("results");
        Path inv = Files.writeString(dir.resolve("inventory"), "h ansible_host=127.0.0.1\n");
        assertEquals(2, Lab.run("fleet", dir.resolve("none.ini").toString(), "--results", results.toString(), "--",
                "pair", "dm-css-ref"));
        assertTrue(err.toString().contains("no inventory " + dir.resolve("none.ini")), err.toString());
        assertEquals(2, Lab.run("fleet", inv.toString(), "--results", results.toString(), "--", "frobnicate", "x"));
        assertTrue(err.toString().contains("-- pair FIX..."), err.toString());
        assertEquals(2, Lab.run("fleet", inv.toString(), "--results", results.toString(), "--", "pair", "dm-css-ref",
                "--results", "/elsewhere"));
        assertTrue(err.toString().contains("the fleet's own"), err.toString());
        assertEquals(2, Lab.run("fleet", inv.toString(), "--time-limit", "0", "--results", results.toString(), "--", "pair",
                "dm-css-ref"));
        assertTrue(err.toString().contains("--time-limit and --forks must be at least 1"), err.toString());
        assertEquals(2, Lab.run("fleet", "-i", inv.toString(), "--results", results.toString(), "--", "pair"));
        assertTrue(err.toString().contains("after the inventory: -- pair FIX..."), err.toString());
        assertEquals(2, Lab.run("fleet", inv.toString(), "--results", results.toString(), "--", "profile", "--profile", "x.json"));
        assertTrue(err.toString().contains("a host has no FILE of the controller's"), err.toString());
        assertTrue(Files.notExists(results), "no results folder on bad input");
    }
}
