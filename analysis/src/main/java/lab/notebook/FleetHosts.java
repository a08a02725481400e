package lab.notebook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ./lab fleet}'s hosts, {@code raw/fleet/hosts.tsv}: one row per host of the inventory,
 * tab-separated under a header line naming the columns {@code host state reason cores kernel arch
 * cpu_model virt root machine_id boot_id shares_with left}, read by name (a column the file lacks
 * is empty).
 *
 * <ul>
 *   <li>{@code state}: {@code ok}, {@code failed}, {@code timed out}, {@code unreachable},
 *       {@code unreachable during the run}, {@code cannot run}, {@code check failed}; {@code reason}
 *       why, or for an ok host what its pairing left out;</li>
 *   <li>{@code virt}: {@code kvm} or {@code tcg}, whether the host's guest VM ran under KVM or TCG
 *       ({@code /dev/kvm}); {@code root}: {@code yes} or {@code no};</li>
 *   <li>{@code shares_with}: the other hosts, comma-separated, with the same machine id (a fleet
 *       allowed to run on one machine twice, {@code --allow-shared-host}); {@code left}: what
 *       cleanup left on the host (empty: nothing).</li>
 * </ul>
 */
record FleetHosts(List<Host> hosts) {
    /** The host's state whose pairing finished: the only hosts a comparison compares. */
    static final String OK = "ok";

    /** One row of hosts.tsv. */
    record Host(String name, String state, String reason, String cores, String kernel, String arch, String cpuModel, String virt,
                String root, List<String> sharesWith, String left) {
        boolean ok() {
            return state.equals(OK);
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", name);
            m.put("state", state);
            m.put("reason", reason.isEmpty() ? null : reason);
            m.put("cores", cores.matches("\\d+") ? Integer.parseInt(cores) : null);
            m.put("cpu_model", cpuModel.isEmpty() ? null : cpuModel);
            m.put("kernel", kernel.isEmpty() ? null : kernel);
            m.put("arch", arch.isEmpty() ? null : arch);
            m.put("virt", virt.isEmpty() ? null : virt);
            m.put("root", root.isEmpty() ? null : root.equals("yes"));
            m.put("shares_with", sharesWith);
            m.put("left", left.isEmpty() ? null : left);
            return m;
        }
    }

    /** The hosts of {@code tsv}; null where the run has no such file (a comparison made by hand). */
    static FleetHosts read(Path tsv) throws IOException {
        if (!Files.isRegularFile(tsv)) {
            return null;
        }
        List<String> lines = Files.readAllLines(tsv);
        if (lines.isEmpty()) {
            return new FleetHosts(List.of());
        }
        List<String> header = Arrays.asList(lines.getFirst().split("\t", -1));
        List<Host> hosts = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            java.util.function.Function<String, String> col = name -> {
                int i = header.indexOf(name);
                return i >= 0 && i < f.length ? f[i].strip() : "";
            };
            String shares = col.apply("shares_with");
            hosts.add(new Host(f[0].strip(), col.apply("state"), col.apply("reason"), col.apply("cores"), col.apply("kernel"),
                    col.apply("arch"), col.apply("cpu_model"), col.apply("virt"), col.apply("root"),
                    shares.isEmpty() ? List.of() : Arrays.stream(shares.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList(),
                    col.apply("left")));
        }
        return new FleetHosts(List.copyOf(hosts));
    }

    /** The hosts whose pairing finished. */
    List<Host> ok() {
        return hosts.stream().filter(Host::ok).toList();
    }

    /** The host named {@code name}; null for none. */
    Host host(String name) {
        return hosts.stream().filter(h -> h.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * The hosts table: one row per host, its state and why, its machine, KVM or TCG, root, where
     * each ok host's calibration came from ({@code calibration}: host to its cell), and a note
     * where it shares its machine or cleanup left something; then which hosts are compared.
     */
    String table(Map<String, String> calibration, boolean anotherMachines) {
        StringBuilder md = new StringBuilder("## Hosts\n\n| host | state | why / what it left out | cores | CPU | kernel | KVM/TCG | root"
                + " | calibration | notes |\n|---|---|---|---:|---|---|---|---|---|---|\n");
        boolean shared = false;
        for (Host h : hosts) {
            String cpu = h.cpuModel().isEmpty() ? h.arch() : h.arch().isEmpty() ? h.cpuModel() : h.cpuModel() + " (" + h.arch() + ")";
            List<String> notes = new ArrayList<>();
            if (!h.sharesWith().isEmpty()) {
                shared = true;
                notes.add("shares its machine (and CPUs) with " + String.join(", ", h.sharesWith().stream().map(s -> "`" + s + "`").toList()));
            }
            if (!h.left().isEmpty()) {
                notes.add("left on the host: " + h.left());
            }
            md.append("| `").append(h.name()).append("` | ").append(cell(h.state())).append(" | ").append(cell(h.reason())).append(" | ")
                    .append(cell(h.cores())).append(" | ").append(cell(cpu)).append(" | ").append(cell(h.kernel())).append(" | ")
                    .append(cell(h.virt().toUpperCase(java.util.Locale.ROOT))).append(" | ").append(cell(h.root())).append(" | ")
                    .append(h.ok() ? calibration.getOrDefault(h.name(), "—") : "—").append(" | ")
                    .append(notes.isEmpty() ? "" : cell(String.join("; ", notes))).append(" |\n");
        }
        long ok = hosts.stream().filter(Host::ok).count();
        md.append("\nOnly the hosts whose pairing finished (state ok) are compared below: ").append(ok).append(" of ").append(hosts.size())
                .append(".");
        if (anotherMachines) {
            md.append(" A calibration marked **another machine's** was not measured on the host: its kernel side did not run (no root,"
                    + " say), so its pairing took the kernel's CPU per I/O from the lab's committed run named, made on another machine;"
                    + " its calibrated figures carry that machine's kernel, not the host's.");
        }
        if (shared) {
            md.append(" Hosts that share a machine (the same machine id; the fleet ran with --allow-shared-host) shared its CPUs, at"
                    + " the same time where their runs overlapped: their figures are not independent of each other, nor each the"
                    + " machine's alone.");
        }
        return md.append("\n\n").toString();
    }

    private static String cell(String s) {
        return s == null || s.isEmpty() ? "—" : s.replace("|", "\\|");
    }

    List<Map<String, Object>> json() {
        return hosts.stream().map(Host::json).toList();
    }
}
