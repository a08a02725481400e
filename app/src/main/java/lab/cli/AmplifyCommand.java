package lab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import lab.fix.Adaptive;
import lab.fix.AmplifiedModel;
import lab.fix.FixUnit;
import lab.fix.Fixes;
import lab.fix.GuestModel;
import lab.fix.Pairing;
import lab.fix.Steps;
import lab.notebook.Notebook;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lab amplify RUN FIX...}: the model amplified as the lab kernel's switch amplifies the
 * kernel, against a kernel sweep a run already took. The sweep is the long part of a
 * {@code pair --lab-ab full} (two boots of every N, minutes a fix); the model's side is a few
 * JMH runs. This runs, for each FIX, the same steps {@code pair} runs after the fix's JVM step
 * into the run's {@code raw/FIX/lab-kernel/}: on the host ({@link AmplifiedModel#run}, at the
 * run's own JMH settings: its manifest's {@code quick}, {@code threads}, {@code rounds}) and in the
 * guest on the A/B's vCPUs ({@link AmplifiedModel#runInGuest}, on {@code --guest-kernel}), as
 * {@code --where} says; records them in {@code raw/steps.tsv} and regenerates the notebook. Every
 * FIX, {@code --where} and {@code --guest-kernel} are checked before anything runs, and whether
 * the guest can run here: a refusal exits 2 with nothing written.
 */
@Command(name = "amplify", mixinStandardHelpOptions = true,
        description = {"Amplify the model as a run's lab kernel switch.",
                "For each FIX, against RUN's raw/FIX/lab-kernel/lab-ab.tsv (from pair",
                "--lab-ab full): the model with N operations at the switch's sites against",
                "it without them, over the sweep's N, at the guest's CPU per I/O: on the",
                "host, and in the guest on the A/B's vCPUs (--where). Then the notebook",
                "is written again."})
final class AmplifyCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN", description = "a run folder with a full lab kernel A/B")
    Path dir;

    @Parameters(index = "1..*", paramLabel = "FIX", arity = "1..*", description = "fix id(s) with an amplified model")
    List<String> fixes;

    @Option(names = "--where", paramLabel = "WHERE", description = "host, guest or both (default): where the model runs")
    String where = "both";

    @Option(names = "--guest-kernel", paramLabel = "KERNEL", description = "lab (default: the A/B's own lab kernel) or debian:"
            + " the guest's kernel for --where guest or both")
    String guestKernel = "lab";

    @Override
    public Integer call() throws Exception {
        Path raw = dir.resolve("raw");
        Path manifest = dir.resolve("manifest.json");
        if (!Files.isDirectory(raw) || !Files.isRegularFile(manifest)) {
            System.err.println("lab: amplify: " + dir + ": not a run folder (no raw/ and manifest.json)");
            return Lab.EXIT_BAD_INPUT;
        }
        if (!List.of("host", "guest", "both").contains(where)) {
            System.err.println("lab: amplify: --where '" + where + "' is not host, guest or both");
            return Lab.EXIT_BAD_INPUT;
        }
        if (!List.of("lab", "debian").contains(guestKernel)) {
            System.err.println("lab: amplify: --guest-kernel '" + guestKernel + "' is not lab or debian");
            return Lab.EXIT_BAD_INPUT;
        }
        boolean host = !where.equals("guest");
        boolean guest = !where.equals("host");
        JsonNode m = new ObjectMapper().readTree(manifest.toFile());
        List<Pairing> todo = new ArrayList<>();
        for (String fix : fixes) {
            String why = whyNot(fix, raw, m);
            if (why != null) {
                System.err.println("lab: amplify: " + fix + ": " + why);
                return Lab.EXIT_BAD_INPUT;
            }
            todo.add(Fixes.byId(fix).map(FixUnit::pairing).orElseThrow());
        }
        String noGuest = guest ? LabKernelSteps.whyNot(Lab.root(), "lab") : null;
        if (noGuest != null) {
            System.err.println("lab: amplify: the model cannot run in the guest here: " + noGuest + " (--where host runs it on the host"
                    + " alone)");
            return Lab.EXIT_BAD_INPUT;
        }
        boolean quick = m.path("quick").asBoolean(false);
        List<Integer> threads = new ArrayList<>();
        m.path("threads").forEach(t -> threads.add(t.asInt()));
        int rounds = m.path("rounds").asInt(1);
        long budget = m.path("headline_budget_s").asLong(Adaptive.budget(null, quick));
        Steps steps = new Steps(raw, System.err);
        boolean failed = false;
        for (Pairing p : todo) {
            Pairing.Ctx c = new Pairing.Ctx(dir, raw.resolve(p.fixId()), dir.resolve("flamegraphs").resolve(p.fixId()), quick, threads,
                    rounds, budget, steps, System.err);
            AmplifiedModel am = p.amplifiedModel();
            String how = " (`./lab amplify " + dir.getFileName() + " " + p.fixId() + " --where " + where
                    + (guest ? " --guest-kernel " + guestKernel : "") + "`, after the run)";
            if (host) {
                failed |= !PairRun.step(steps, p.fixId(), "lab-kernel-amplified", am.step() + how, () -> am.run(c));
            }
            if (guest) {
                failed |= !PairRun.step(steps, p.fixId(), "lab-kernel-amplified-guest", am.guestStep(guestKernel) + how,
                        () -> am.runInGuest(c, guestKernel, LabKernelSteps.jmhGuest(Lab.root(), dir)));
            }
        }
        Notebook.Written w = Fixes.notebook(dir);
        System.err.println("lab: wrote " + w.notebook());
        return failed ? Lab.EXIT_FAILED : 0;
    }

    /** Why {@code fix} cannot be amplified in this run; null when it can. */
    static String whyNot(String fix, Path raw, JsonNode manifest) {
        Optional<Pairing> p = Fixes.byId(fix).map(FixUnit::pairing);
        if (p.isEmpty()) {
            return "not a fix the lab pairs (" + String.join(", ", Fixes.pairable()) + ")";
        }
        if (p.get().amplifiedModel() == null) {
            return "its model has no amplified form (no switch with a count in the lab kernel)";
        }
        if (!GuestModel.hasAb(raw.resolve(fix))) {
            return "the run has no kernel sweep for it (raw/" + fix + "/lab-kernel/lab-ab.tsv)";
        }
        if (!manifest.path("lab_ab").asText("").equals("full")) {
            return "the run's lab kernel A/B was '" + manifest.path("lab_ab").asText("?") + "', not full: the amplified model"
                    + " runs over a full sweep's N";
        }
        return null;
    }
}
