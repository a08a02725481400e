package lab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One playbook's run as {@code fleet/callback_plugins/lab_events.py} wrote it: a JSON object per
 * line, each task result of each host ({@code ok}, {@code failed}, {@code unreachable},
 * {@code skipped}) under the inventory host's name (a delegated task's too), and the recap
 * ({@code stats}). What {@link FleetCommand} knows of a host comes from here, never from
 * Ansible's terminal, whose form is the user's stdout callback's.
 *
 * @param results each host's task results, in the order they came
 * @param recapped the hosts the recap names (every host the play ran on, {@code --limit} applied)
 */
record FleetEvents(Map<String, List<JsonNode>> results, List<String> recapped) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The events in {@code file} (none when the playbook wrote none); a line that is not JSON is an error. */
    static FleetEvents read(Path file) throws IOException {
        Map<String, List<JsonNode>> results = new TreeMap<>(FleetEvents::byName);
        List<String> recapped = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return new FleetEvents(results, recapped);
        }
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            JsonNode e;
            try {
                e = JSON.readTree(line);
            } catch (IOException bad) {
                throw new IOException(file + ":" + n + ": not an event (" + bad.getMessage().lines().findFirst().orElse("") + ")");
            }
            if (e.path("event").asText().equals("stats")) {
                e.path("hosts").fieldNames().forEachRemaining(h -> {
                    if (!recapped.contains(h)) {
                        recapped.add(h);
                    }
                });
            } else if (e.hasNonNull("host")) {
                results.computeIfAbsent(e.path("host").asText(), h -> new ArrayList<>()).add(e);
            }
        }
        recapped.sort(FleetEvents::byName);
        return new FleetEvents(results, recapped);
    }

    /** Host names in natural order: host-2 before host-10. */
    static int byName(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i);
            char y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int ei = i;
                int ej = j;
                while (ei < a.length() && Character.isDigit(a.charAt(ei))) {
                    ei++;
                }
                while (ej < b.length() && Character.isDigit(b.charAt(ej))) {
                    ej++;
                }
                String na = a.substring(i, ei).replaceFirst("^0+(?=.)", "");
                String nb = b.substring(j, ej).replaceFirst("^0+(?=.)", "");
                int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
                if (c != 0) {
                    return c;
                }
                i = ei;
                j = ej;
            } else {
                if (x != y) {
                    return Character.compare(x, y);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** Every host the play reached or tried to: the recap's, and any with a result. */
    List<String> hosts() {
        List<String> all = new ArrayList<>(recapped);
        results.keySet().stream().filter(h -> !all.contains(h)).forEach(all::add);
        all.sort(FleetEvents::byName);
        return all;
    }

    private List<JsonNode> of(String host) {
        return results.getOrDefault(host, List.of());
    }

    /** The host's first {@code unreachable} result, or null. */
    JsonNode unreachable(String host) {
        return of(host).stream().filter(e -> e.path("event").asText().equals("unreachable")).findFirst().orElse(null);
    }

    /** The host's first failed result that was not ignored, or null. */
    JsonNode failed(String host) {
        return of(host).stream().filter(e -> e.path("event").asText().equals("failed") && !e.path("ignore_errors").asBoolean())
                .findFirst().orElse(null);
    }

    /** The host's last {@code ok} result of the task named {@code task}, or null. */
    JsonNode ok(String host, String task) {
        JsonNode found = null;
        for (JsonNode e : of(host)) {
            if (e.path("event").asText().equals("ok") && e.path("task").asText().equals(task)) {
                found = e;
            }
        }
        return found;
    }

    /** The last result of task {@code task} on the host, whatever its end, or null. */
    JsonNode last(String host, String task) {
        JsonNode found = null;
        for (JsonNode e : of(host)) {
            if (e.path("task").asText().equals(task)) {
                found = e;
            }
        }
        return found;
    }

    /**
     * A result's message in one line: Ansible's {@code msg}, else its stderr's last line; ssh's
     * notice that it added a host key is not the reason.
     */
    static String message(JsonNode e) {
        JsonNode r = e.path("result");
        String msg = r.path("msg").isTextual() ? r.path("msg").asText().strip() : "";
        if (msg.isEmpty() || msg.equals("non-zero return code")) {
            String err = r.path("stderr").asText("").strip();
            String last = err.lines().reduce((a, b) -> b).orElse("");
            msg = !last.isEmpty() ? last : msg.isEmpty() ? "no message" : msg;
            if (r.path("rc").isInt() && r.path("rc").asInt() != 0) {
                msg = "exit " + r.path("rc").asInt() + ": " + msg;
            }
        }
        return msg.lines().map(String::strip)
                .map(l -> l.replaceFirst("Warning: Permanently added .* to the list of known hosts\\.", "").strip())
                .filter(l -> !l.isEmpty()).collect(Collectors.joining(" ")).replaceFirst(":$", "");
    }
}
