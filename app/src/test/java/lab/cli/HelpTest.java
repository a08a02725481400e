package lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Help that reads whole: every command answers --help and -h with its usage, the one-line
 * summaries a command list shows are whole sentences (pinned here, so a change is deliberate),
 * and no line of a description is cut by picocli's wrapping.
 */
class HelpTest extends CapturedStreams {
    /** What {@code ./lab PARENT --help} lists for each command, by its path below lab, as the lists run. */
    private static final String SUMMARIES = """
            demo: The main job: ./lab pair --quick for every modelled fix.
            test: Run every test of the lab, as .ci/run does.
            kernel: Real devices, made and removed safely as root.
            engine: The JVM engine: the kernel's block stack modelled on the JVM.
            bridge: The native bridge: the engine's job files, on real devices.
            bench: JMH benchmarks of the JVM engine; a run writes results/<run-id>/.
            pair: Measure each FIX before and after, on the JVM and real devices.
            amplify: Amplify the model as a run's lab kernel switch.
            notebook: Regenerate a run folder's notebook from its manifest and raw/.
            compare: Line up two or more run folders in one notebook.
            coverage: Measure the intervals' coverage on simulated runs.
            profile: Measure this machine's cost profile and predict each fix at scale.
            fleet: Run one pairing on every host of an Ansible inventory.
            flamegraph: Render collapsed stacks to a standalone SVG flamegraph.
            spec: Job files (fio's INI subset, shared by the engine and the bridge).
            help: Display help information about the specified command.
            engine run: Run a job file through the JVM engine and print fio-compatible JSON.
            bridge run: Run a job file on a real block device or file; print fio-compatible JSON.
            bench primitives: Time each sync primitive's get+put pair, refscale-style.
            bench report: Write a benchmark run folder's notebook from its raw/ files.
            spec check: Print a job file's jobs with fio's defaults applied.
            spec render: Print a job file derived from EXAMPLE, a fix's examples/*.fio.
            spec keys: List every option of fio 3.33 and what the lab does with it.
            """;

    /** Every command by its path below lab ("" for lab itself, "bench primitives"), parents first. */
    private static Map<String, CommandLine> commands() {
        Map<String, CommandLine> all = new LinkedHashMap<>();
        add(all, "", new CommandLine(new Lab()));
        return all;
    }

    private static void add(Map<String, CommandLine> all, String path, CommandLine c) {
        all.put(path, c);
        c.getSubcommands().forEach((name, sub) -> add(all, (path + " " + name).strip(), sub));
    }

    private static String[] argv(String path, String flag) {
        List<String> a = new ArrayList<>(path.isEmpty() ? List.of() : List.of(path.split(" ")));
        a.add(flag);
        return a.toArray(String[]::new);
    }

    /** {@code ./lab PATH --help}'s standard output, after asserting exit 0. */
    private String help(String path, String flag) {
        out.reset();
        assertEquals(0, Lab.run(argv(path, flag)), "./lab " + path + " " + flag + ": " + err);
        return out.toString();
    }

    @Test
    void everyCommandAnswersHelpAndHWithItsUsage() {
        for (String path : commands().keySet()) {
            for (String flag : List.of("--help", "-h")) {
                String usage = help(path, flag);
                String synopsis = ("Usage: lab " + path).strip() + " ";
                assertTrue(usage.lines().anyMatch(l -> l.startsWith(synopsis)), path + " " + flag + ": " + usage);
            }
        }
    }

    @Test
    void summariesAreWholeSentencesAndPinned() {
        Map<String, String> listed = new LinkedHashMap<>();
        commands().forEach((path, c) -> {
            if (c.getSubcommands().isEmpty()) {
                return;
            }
            List<String> lines = help(path, "--help").lines().toList();
            for (String name : c.getSubcommands().keySet()) {
                String child = (path + " " + name).strip();
                String line = lines.stream().filter(l -> l.startsWith("  " + name + " ")).findFirst()
                        .orElseThrow(() -> new AssertionError("./lab " + path + " --help does not list " + name));
                listed.put(child, line.substring(2 + name.length()).strip());
            }
        });
        List<String> cut = listed.entrySet().stream().filter(e -> !isWholeSentence(e.getValue()))
                .map(e -> e.getKey() + ": '" + e.getValue() + "'").toList();
        assertEquals(List.of(), cut, "summaries that are not whole sentences on their line");
        StringBuilder pinned = new StringBuilder();
        listed.forEach((path, summary) -> pinned.append(path).append(": ").append(summary).append('\n'));
        assertEquals(SUMMARIES, pinned.toString());
    }

    @Test
    void everyDescriptionLinePrintsAsWritten() {
        commands().forEach((path, c) -> {
            List<String> lines = help(path, "--help").lines().toList();
            for (String d : c.getCommandSpec().usageMessage().description()) {
                String.format(d).lines().forEach(l -> assertTrue(lines.contains(l), "./lab " + path + " --help rewraps '" + l + "'"));
            }
        });
    }

    @Test
    void theWholeSentenceCheckCanFail() {
        assertTrue(isWholeSentence("Run (a job)."));
        for (String s : List.of("The main job: ./lab pair (today: the primitives", "Real devices (as root):", "Cut (open.", "Odd) (.")) {
            assertFalse(isWholeSentence(s), s);
        }
    }

    /** Ends with a period, and every parenthesis closes after it opens. */
    private static boolean isWholeSentence(String s) {
        int depth = 0;
        for (char ch : s.toCharArray()) {
            depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
            if (depth < 0) {
                return false;
            }
        }
        return depth == 0 && s.endsWith(".");
    }
}
