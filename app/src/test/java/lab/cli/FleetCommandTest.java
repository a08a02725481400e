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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FleetCommand}'s decisions from a host's facts (check.yml's JSON), and its refusals of a
 * bad command line, which make nothing. The fleet itself, through Ansible on two loopback hosts,
 * is kernel-scripts test 045.
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
    void whatARunningHostLeavesOutIsNoted() throws Exception {
        assertEquals("", FleetCommand.notes(facts("Linux", 10L << 30, 0, true, "/j")));
        assertEquals("not root: the JVM side only; no /dev/kvm: the guest under TCG",
                FleetCommand.notes(facts("Linux", 10L << 30, 1000, false, "/j")));
    }

    /** Ansible's terminal as ansible-core 2.14's default callback writes it (check.yml on two hosts, one not there). */
    @Test
    void ansiblesTerminalGivesEachHostsRecapAndWhyItFailed() {
        FleetCommand.Played p = FleetCommand.parse(java.util.List.of(
                "TASK [Gathering Facts] *********************************************************",
                "fatal: [gone]: UNREACHABLE! => {\"changed\": false, \"msg\": \"Failed to connect to the host via ssh:"
                        + " ssh: connect to host 127.0.0.1 port 1: Connection refused\", \"unreachable\": true}",
                "ok: [host-a]",
                "fatal: [host-b]: FAILED! => {\"changed\": false, \"msg\": \"Failed to connect: Warning: Permanently added"
                        + " '[127.0.0.1]:2222' (ED25519) to the list of known hosts.\\r\\nu@127.0.0.1: Permission denied\"}",
                "",
                "PLAY RECAP *********************************************************************",
                "gone                       : ok=0    changed=0    unreachable=1    failed=0    skipped=0    rescued=0    ignored=0",
                "host-a                     : ok=4    changed=1    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0",
                "host-b                     : ok=1    changed=0    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0"));
        assertEquals(java.util.List.of("gone", "host-a", "host-b"), java.util.List.copyOf(p.recap().keySet()));
        assertEquals(new FleetCommand.Recap(1, 0), p.recap().get("gone"));
        assertEquals(new FleetCommand.Recap(0, 1), p.recap().get("host-b"));
        assertTrue(p.messages().get("gone").endsWith("Connection refused"), p.messages().toString());
        assertEquals("Failed to connect: u@127.0.0.1: Permission denied", p.messages().get("host-b"), "ssh's warning dropped");
        assertNull(p.messages().get("host-a"));
    }

    @Test
    void aBadCommandLineExits2AndMakesNothing() throws Exception {
        Path results = dir.resolve("results");
        Path inv = Files.writeString(dir.resolve("inventory"), "h ansible_host=127.0.0.1\n");
        assertEquals(2, Lab.run("fleet", dir.resolve("none.ini").toString(), "--results", results.toString(), "--",
                "pair", "dm-css-ref"));
        assertTrue(err.toString().contains("no inventory file"), err.toString());
        assertEquals(2, Lab.run("fleet", inv.toString(), "--results", results.toString(), "--", "frobnicate", "x"));
        assertTrue(err.toString().contains("-- pair FIX..."), err.toString());
        assertEquals(2, Lab.run("fleet", inv.toString(), "--results", results.toString(), "--", "pair", "dm-css-ref",
                "--results", "/elsewhere"));
        assertTrue(err.toString().contains("the fleet's own"), err.toString());
        assertEquals(2, Lab.run("fleet", inv.toString(), "--limit", "0", "--results", results.toString(), "--", "pair",
                "dm-css-ref"));
        assertTrue(Files.notExists(results), "no results folder on bad input");
    }
}
