package lab.jobspec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job file derived from another (a fix's {@code examples/*.fio}) with keys overridden, added or
 * removed: what {@code spec render} prints, so that a scenario states only what it changes and
 * the rest stays the example's.
 *
 * <ul>
 * <li>{@code --set KEY=VALUE} (or {@code --set KEY} for a flag such as {@code time_based}) goes
 *     into the first {@code [global]}: in place of the example's own line for that key, else
 *     appended to it; a {@code [global]} is put first when the example's first section is a job.
 *     Every other line for the key (later globals, job sections) is dropped, so the override
 *     holds for every job.</li>
 * <li>{@code --unset KEY} drops every line for the key: the job gets fio's default.</li>
 * <li>{@code --name SECTION} renames the job section of an example that has exactly one.</li>
 * </ul>
 * Keys are compared by their canonical name ({@code blocksize} is {@code bs}). Comments and blank
 * lines of the example are dropped; one comment line at the top says where the file came from.
 * The result is parsed before it is returned, so a bad value is refused here, naming its key, and
 * never reaches a runner. Refusals are {@link JobSpecException}s.
 */
public final class JobRender {
    private static final String GLOBAL = "global";

    private JobRender() {
    }

    /**
     * Renders {@code example} with {@code sets} ({@code KEY=VALUE} or a bare flag {@code KEY}),
     * {@code unsets} ({@code KEY}) and, when not null, the job section renamed to {@code name}.
     */
    public static String render(Path example, List<String> sets, List<String> unsets, String name)
            throws JobSpecException {
        JobFileParser.parse(example); // the example itself must be a good job file: its own lines in messages
        Map<String, String> set = overrides(example, sets);
        Set<String> unset = new LinkedHashSet<>();
        for (String key : unsets) {
            String canonical = canonical(example, key.strip(), "--unset " + key);
            if (set.containsKey(canonical)) {
                throw new JobSpecException(example, 0, key.strip(), "both --set and --unset");
            }
            unset.add(canonical);
        }
        List<String> lines = lines(example);
        int jobSections = 0;
        boolean globalFirst = false;
        for (String l : lines) {
            if (l.startsWith("[")) {
                boolean global = sectionName(l).equals(GLOBAL);
                if (jobSections == 0 && global) {
                    globalFirst = true;
                }
                if (!global) {
                    jobSections++;
                }
            }
        }
        if (name != null) {
            checkName(example, name, jobSections);
        }

        StringBuilder out = new StringBuilder();
        out.append("; rendered from ").append(example.getFileName()).append(summary(sets, unsets, name)).append('\n');
        Map<String, String> pending = new LinkedHashMap<>(set); // canonical -> line, not yet written
        boolean sectionSeen = false;
        if (!globalFirst && !pending.isEmpty()) {
            out.append("[global]\n");
            pending.values().forEach(v -> out.append(v).append('\n'));
            pending.clear();
            sectionSeen = true;
        }
        boolean inFirstGlobal = false;
        for (String l : lines) {
            if (l.startsWith("[")) {
                if (inFirstGlobal) {
                    pending.values().forEach(v -> out.append(v).append('\n'));
                    pending.clear();
                }
                String section = sectionName(l);
                inFirstGlobal = !sectionSeen && section.equals(GLOBAL);
                if (sectionSeen) {
                    out.append('\n');
                }
                sectionSeen = true;
                out.append('[').append(section.equals(GLOBAL) || name == null ? section : name).append("]\n");
                continue;
            }
            int eq = l.indexOf('=');
            String key = (eq < 0 ? l : l.substring(0, eq)).strip();
            String canonical = Keys.canonical(key);
            if (unset.contains(canonical)) {
                continue;
            }
            if (set.containsKey(canonical)) {
                if (inFirstGlobal && pending.containsKey(canonical)) {
                    out.append(pending.remove(canonical)).append('\n');
                }
                continue;
            }
            out.append(eq < 0 ? key : key + "=" + l.substring(eq + 1).strip()).append('\n');
        }
        if (inFirstGlobal) {
            pending.values().forEach(v -> out.append(v).append('\n'));
        }
        String text = out.toString();
        JobFileParser.parse(Path.of(example + " (rendered)"), text);
        return text;
    }

    /** The {@code --set} arguments as canonical key to the line to write, the last of a key winning. */
    private static Map<String, String> overrides(Path example, List<String> sets) throws JobSpecException {
        Map<String, String> set = new LinkedHashMap<>();
        for (String arg : sets) {
            int eq = arg.indexOf('=');
            String key = (eq < 0 ? arg : arg.substring(0, eq)).strip();
            String canonical = canonical(example, key, "--set " + arg);
            if (eq < 0) {
                if (!Keys.isFlag(canonical)) {
                    throw new JobSpecException(example, 0, key, "--set " + arg + ": needs a value (--set KEY=VALUE)");
                }
                set.put(canonical, key);
                continue;
            }
            String value = arg.substring(eq + 1).strip();
            if (value.isEmpty()) {
                throw new JobSpecException(example, 0, key, "--set " + arg + ": empty value");
            }
            if (!JobFileParser.withoutComment(value).equals(value) || value.contains("\n")) {
                throw new JobSpecException(example, 0, key, "--set " + arg + ": a value cannot hold ';', '#' or a newline");
            }
            set.put(canonical, key + "=" + value);
        }
        return set;
    }

    private static String canonical(Path example, String key, String what) throws JobSpecException {
        String canonical = key.isEmpty() ? null : Keys.canonical(key);
        if (canonical == null) {
            throw new JobSpecException(example, 0, key.isEmpty() ? "=" : key, what + ": unknown key");
        }
        return canonical;
    }

    private static void checkName(Path example, String name, int jobSections) throws JobSpecException {
        if (jobSections != 1) {
            throw new JobSpecException(example, 0, null,
                    "--name renames the job section of an example with one; this one has " + jobSections);
        }
        String n = name.strip();
        if (n.isEmpty() || n.equals(GLOBAL) || !n.equals(name) || name.contains("]") || name.contains("\n")
                || !JobFileParser.withoutComment(name).equals(name)) {
            throw new JobSpecException(example, 0, null, "--name '" + name + "': not a section name");
        }
    }

    private static String summary(List<String> sets, List<String> unsets, String name) {
        StringBuilder b = new StringBuilder();
        sets.forEach(s -> b.append(" --set ").append(s.strip()));
        unsets.forEach(u -> b.append(" --unset ").append(u.strip()));
        if (name != null) {
            b.append(" --name ").append(name);
        }
        return b.isEmpty() ? "" : ":" + b;
    }

    private static String sectionName(String header) {
        return header.substring(1, header.length() - 1).strip();
    }

    /** The example's section headers and settings, comments and blanks gone. */
    private static List<String> lines(Path example) throws JobSpecException {
        String text;
        try {
            text = Files.readString(example, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new JobSpecException(example, 0, null, "no such file");
        } catch (IOException e) {
            throw new JobSpecException(example, 0, null, "cannot read: " + e);
        }
        List<String> lines = new ArrayList<>();
        for (String raw : text.split("\n", -1)) {
            String l = JobFileParser.withoutComment(raw).strip();
            if (lines.isEmpty() && l.startsWith("\uFEFF")) {
                l = l.substring(1).strip();
            }
            if (!l.isEmpty()) {
                lines.add(l);
            }
        }
        return lines;
    }
}
