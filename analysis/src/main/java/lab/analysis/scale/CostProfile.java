package lab.analysis.scale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A machine's cost profile ({@code profile.json}): for each kind of shared-line operation, the
 * closed queue a contended line is on that machine ({@link lab.analysis.fidelity.LineQueue}: service
 * S and transfer M, each with its 95% interval), fitted from that machine's measurements
 * ({@code source = measured}, {@code ./lab profile}) or built from published latencies for its
 * class of processor ({@code source = published}, every figure cited in {@code sources}). With
 * two sockets or more a kind may carry the same two figures for a line last written on another
 * socket ({@code remote_*}), which {@link #line} mixes in by where n threads spread.
 *
 * <p>The file format, {@value #FORMAT}: {@code format}, {@code name}, {@code source},
 * {@code machine} ({@code cpu_model}, {@code cores}, {@code sockets}, {@code numa_nodes},
 * {@code threads_per_core}, {@code kernel}, {@code arch}), {@code kinds} (each
 * {@code service_ns} and {@code transfer_ns} as {@code {value, ci95: [lo, hi], df}}, optional
 * {@code remote_service_ns}, {@code remote_transfer_ns}; {@code points}, {@code rms_rel_err} for
 * a fit), {@code took_s} (measured), {@code method}, {@code sources} (published: each
 * {@code document}, {@code where}, {@code url}, {@code quote}). {@link #read} refuses a file
 * that lacks a kind it is asked for or holds a number that is not one, naming the file and field.
 *
 * @param name      what the profile is of, in words ("this machine", a processor class)
 * @param source    {@value #MEASURED} or {@value #PUBLISHED}
 * @param machine   the machine it is of
 * @param kinds     each kind's line, by kind id
 * @param tookS     seconds the measurement took (NaN: published)
 * @param method    how it was made, in words
 * @param sources   the citations of a published profile (empty: measured)
 */
public record CostProfile(String name, String source, Machine machine, Map<String, KindCost> kinds, double tookS, String method,
                          List<Citation> sources) {

    public static final int FORMAT = 1;
    public static final String MEASURED = "measured";
    public static final String PUBLISHED = "published";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The machine: its processor, cores, sockets and NUMA nodes, and for a measured one its kernel. */
    public record Machine(String cpuModel, int cores, int sockets, int numaNodes, int threadsPerCore, String kernel, String arch) {}

    /**
     * One figure with its 95% interval: {@code df} the degrees of freedom of a fit's interval over
     * rounds, 0 where the interval is a published range (or there is none: {@code lo == hi}).
     */
    public record Figure(double value, double lo, double hi, int df) {
        public static Figure exact(double v) {
            return new Figure(v, v, v, 0);
        }

        public boolean hasInterval() {
            return hi > lo;
        }

        /** {@code {value, ci95: [lo, hi], df}}, as profile.json holds it. */
        public Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("value", round(value));
            m.put("ci95", List.of(round(lo), round(hi)));
            m.put("df", df);
            return m;
        }
    }

    /**
     * One kind's line: S and M within a socket, and across sockets where the profile has them
     * (null: the same as within); the points a measured fit rests on and its relative rms error.
     */
    public record KindCost(Figure service, Figure transfer, Figure remoteService, Figure remoteTransfer, int points, double rmsRelErr) {
        public KindCost(Figure service, Figure transfer) {
            this(service, transfer, null, null, 0, Double.NaN);
        }
    }

    /** A published figure's source: the document, where in it, its address, and its words. */
    public record Citation(String document, String where, String url, String quote) {}

    /** Whether the profile is built from published figures rather than measured. */
    public boolean published() {
        return PUBLISHED.equals(source);
    }

    /**
     * The line of {@code kind} at {@code n} threads as one queue: S and M within a socket, mixed
     * with the remote ones by the share of the other {@code n − 1} threads on another socket
     * when n threads spread evenly over the sockets (as the scheduler balances an idle machine);
     * {@code draw} picks each figure (its value, or a draw from its interval).
     */
    public double[] line(String kind, int n, FigureDraw draw) {
        KindCost k = kinds.get(kind);
        double s = draw.of(kind + ".service", k.service());
        double m = draw.of(kind + ".transfer", k.transfer());
        double f = remoteShare(n);
        if (f > 0 && (k.remoteService() != null || k.remoteTransfer() != null)) {
            double rs = k.remoteService() == null ? s : draw.of(kind + ".remote_service", k.remoteService());
            double rm = k.remoteTransfer() == null ? m : draw.of(kind + ".remote_transfer", k.remoteTransfer());
            s = (1 - f) * s + f * rs;
            m = (1 - f) * m + f * rm;
        }
        return new double[] {s, m};
    }

    /** The share of the other threads on another socket, n threads spread evenly over the sockets; 0 for one socket or thread. */
    public double remoteShare(int n) {
        int sockets = Math.max(1, machine.sockets());
        if (sockets == 1 || n < 2) {
            return 0;
        }
        int mine = (n + sockets - 1) / sockets;
        return (double) (n - mine) / (n - 1);
    }

    /** How a figure is read: its value, or a draw from its interval. */
    @FunctionalInterface
    public interface FigureDraw {
        double of(String name, Figure f);

        FigureDraw VALUE = (name, f) -> f.value();
    }

    /** The profile as {@code profile.json} holds it. */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", FORMAT);
        m.put("name", name);
        m.put("source", source);
        Map<String, Object> mc = new LinkedHashMap<>();
        mc.put("cpu_model", machine.cpuModel());
        mc.put("cores", machine.cores());
        mc.put("sockets", machine.sockets());
        mc.put("numa_nodes", machine.numaNodes());
        mc.put("threads_per_core", machine.threadsPerCore());
        mc.put("kernel", machine.kernel());
        mc.put("arch", machine.arch());
        m.put("machine", mc);
        Map<String, Object> ks = new LinkedHashMap<>();
        kinds.forEach((id, k) -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("service_ns", k.service().json());
            e.put("transfer_ns", k.transfer().json());
            if (k.remoteService() != null) {
                e.put("remote_service_ns", k.remoteService().json());
            }
            if (k.remoteTransfer() != null) {
                e.put("remote_transfer_ns", k.remoteTransfer().json());
            }
            if (k.points() > 0) {
                e.put("points", k.points());
                e.put("rms_rel_err", Double.isFinite(k.rmsRelErr()) ? round(k.rmsRelErr()) : null);
            }
            ks.put(id, e);
        });
        m.put("kinds", ks);
        m.put("took_s", Double.isFinite(tookS) ? round(tookS) : null);
        m.put("method", method);
        List<Object> cs = new ArrayList<>();
        for (Citation c : sources) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("document", c.document());
            e.put("where", c.where());
            e.put("url", c.url());
            e.put("quote", c.quote());
            cs.add(e);
        }
        m.put("sources", cs);
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 1e4) / 1e4;
    }

    /**
     * Reads {@code file}, which must hold every kind of {@code required}: a missing field, a kind
     * left out, or a number that is not one (not finite, negative, an interval that does not hold
     * its value) is a {@link ProfileFormatException} naming the file and the field.
     */
    public static CostProfile read(Path file, Collection<String> required) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ProfileFormatException(file, "(file)", "not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new ProfileFormatException(file, "(file)", "not a JSON object");
        }
        Reader r = new Reader(file);
        if (r.integer(root, "format", 1) != FORMAT) {
            throw new ProfileFormatException(file, "format", "format " + root.get("format") + " is not " + FORMAT);
        }
        String name = r.text(root, "name");
        String source = r.text(root, "source");
        if (!MEASURED.equals(source) && !PUBLISHED.equals(source)) {
            throw new ProfileFormatException(file, "source", "'" + source + "' is neither " + MEASURED + " nor " + PUBLISHED);
        }
        JsonNode mn = r.object(root, "machine");
        Machine machine = new Machine(r.text(mn, "cpu_model"), r.integer(mn, "cores", 1), r.integer(mn, "sockets", 1),
                r.integer(mn, "numa_nodes", 1), r.integer(mn, "threads_per_core", 1), r.optionalText(mn, "kernel"),
                r.optionalText(mn, "arch"));
        JsonNode kn = r.object(root, "kinds");
        Map<String, KindCost> kinds = new TreeMap<>();
        for (String kind : required) {
            if (!kn.has(kind)) {
                throw new ProfileFormatException(file, "kinds." + kind, "missing: a profile prices every kind (" + String.join(", ", required) + ")");
            }
        }
        var it = kn.fields();
        while (it.hasNext()) {
            var e = it.next();
            String at = "kinds." + e.getKey();
            if (!e.getValue().isObject()) {
                throw new ProfileFormatException(file, at, "not an object");
            }
            JsonNode k = e.getValue();
            kinds.put(e.getKey(), new KindCost(r.figure(k, at, "service_ns"), r.figure(k, at, "transfer_ns"),
                    k.has("remote_service_ns") ? r.figure(k, at, "remote_service_ns") : null,
                    k.has("remote_transfer_ns") ? r.figure(k, at, "remote_transfer_ns") : null,
                    k.has("points") ? r.integer(k, at + ".points", "points", 0) : 0,
                    k.path("rms_rel_err").isNumber() ? k.get("rms_rel_err").asDouble() : Double.NaN));
        }
        List<Citation> sources = new ArrayList<>();
        for (JsonNode c : root.path("sources")) {
            sources.add(new Citation(c.path("document").asText(""), c.path("where").asText(""), c.path("url").asText(""),
                    c.path("quote").asText("")));
        }
        if (PUBLISHED.equals(source) && sources.stream().noneMatch(c -> !c.document().isBlank() && !c.where().isBlank())) {
            throw new ProfileFormatException(file, "sources", "a published profile cites its figures (document and where in it)");
        }
        double took = root.path("took_s").isNumber() ? root.get("took_s").asDouble() : Double.NaN;
        return new CostProfile(name, source, machine, kinds, took, root.path("method").asText(""), sources);
    }

    /** Reads fields, naming the file and the field in what it refuses. */
    private record Reader(Path file) {
        String text(JsonNode n, String field) {
            JsonNode v = n.get(field);
            if (v == null || !v.isTextual() || v.asText().isBlank()) {
                throw new ProfileFormatException(file, field, v == null ? "missing" : "not a non-empty string: " + v);
            }
            return v.asText();
        }

        String optionalText(JsonNode n, String field) {
            JsonNode v = n.get(field);
            return v == null || v.isNull() ? null : v.asText();
        }

        JsonNode object(JsonNode n, String field) {
            JsonNode v = n.get(field);
            if (v == null || !v.isObject()) {
                throw new ProfileFormatException(file, field, v == null ? "missing" : "not an object");
            }
            return v;
        }

        int integer(JsonNode n, String field, int min) {
            return integer(n, field, field, min);
        }

        int integer(JsonNode n, String at, String field, int min) {
            JsonNode v = n.get(field);
            if (v == null || !v.isIntegralNumber() || v.asLong() < min || v.asLong() > 1_000_000) {
                throw new ProfileFormatException(file, at, v == null ? "missing" : "not a whole number of at least " + min + ": " + v);
            }
            return v.asInt();
        }

        Figure figure(JsonNode kind, String at, String field) {
            String where = at + "." + field;
            JsonNode f = kind.get(field);
            if (f == null || !f.isObject()) {
                throw new ProfileFormatException(file, where, f == null ? "missing" : "not {value, ci95: [lo, hi]}");
            }
            double v = number(f.get("value"), where + ".value");
            JsonNode ci = f.get("ci95");
            if (ci == null || !ci.isArray() || ci.size() != 2) {
                throw new ProfileFormatException(file, where + ".ci95", "not [lo, hi]");
            }
            double lo = number(ci.get(0), where + ".ci95[0]");
            double hi = number(ci.get(1), where + ".ci95[1]");
            if (!(lo <= v && v <= hi)) {
                throw new ProfileFormatException(file, where + ".ci95", "[" + lo + ", " + hi + "] does not hold the value " + v);
            }
            int df = f.has("df") ? integer(f, where + ".df", "df", 0) : 0;
            return new Figure(v, lo, hi, df);
        }

        double number(JsonNode n, String where) {
            if (n == null || !n.isNumber() || !Double.isFinite(n.asDouble()) || n.asDouble() < 0) {
                throw new ProfileFormatException(file, where, n == null ? "missing" : "not a finite number of at least 0 ns: " + n);
            }
            return n.asDouble();
        }
    }
}
