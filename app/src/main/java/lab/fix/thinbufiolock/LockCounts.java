package lab.fix.thinbufiolock;

import static lab.fix.thinbufiolock.ThinBufioLock.*;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lab.analysis.fidelity.LineCounts;
import lab.engine.bench.ThinBufioLockCounts;
import lab.notebook.Fmt;

/**
 * What each variant does to shared lines per I/O, from the count run ({@code counts.json}, the
 * engine's {@link ThinBufioLockCounts}): its lock acquisitions, the operations at dm-bufio's locks
 * ({@link ThinBufioLockCounts#LOCK_SITES}: the client lock, and the striped cache's per-tree
 * locks), by kind (a {@code mutex} or {@code rwsem-read} pair each; a write lock, on a miss, a
 * {@code cas} to take it and an {@code rmw} to let it go); the buffers' hold counts ({@value #HOLD});
 * and the rest (the bio prison, all_io_ds, the pool's root_lock). With the whole tree cached, the
 * mutex and the rw_semaphore take their lock at every node's get and release, rwsem-walk once per
 * lookup, which the table's last sentence checks against the nodes a lookup visits.
 */
final class LockCounts {
    private LockCounts() {}

    /** The buffers' hold counts. */
    static final String HOLD = "bufio.hold";

    /** Lock acquisitions of the bufio cache per I/O: every operation at its lock sites (the engine's sum). */
    static double acquisitions(LineCounts.Entry e) {
        return byKind(e).values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The operations at the bufio lock sites per I/O, by kind. */
    private static Map<String, Double> byKind(LineCounts.Entry e) {
        Map<String, Double> k = new TreeMap<>();
        for (String site : ThinBufioLockCounts.LOCK_SITES) {
            e.perIo().getOrDefault(site, Map.of()).forEach((kind, n) -> k.merge(kind, n, Double::sum));
        }
        return k;
    }

    /** The table per cache and variant (and dm-linear), into {@code out} by cache and variant. */
    static String text(LineCounts counts, Map<String, Object> out) {
        if (counts == null) {
            return "### Lock acquisitions per I/O\n\nNo shared-line counts in this run (`raw/" + ID + "/counts.json`).\n\n";
        }
        StringBuilder b = new StringBuilder("### Lock acquisitions per I/O, counted\n\nThe shared-line operations of one I/O as the"
                + " count run counted them (the benchmark's own code on one thread, `raw/" + ID + "/counts.json`): the operations at"
                + " dm-bufio's locks (" + String.join(" and ", ThinBufioLockCounts.LOCK_SITES.stream().map(s -> "`" + s + "`").toList())
                + ": the client lock and the striped cache's per-tree locks), their sum the variant's lock acquisitions, and by kind (a"
                + " `mutex` or `rwsem-read` pair each; a write lock, which a miss takes, its `cas` and its `rmw`); the buffers' hold"
                + " counts (`" + HOLD + "`, an RMW each); every other shared-line operation (the bio prison, `all_io_ds`, the pool's"
                + " `root_lock`); and the visits to shared lines:\n\n| cache | variant | bufio lock acquisitions | by kind |"
                + " hold-count RMWs | other shared-line ops | visits |\n|---|---|---:|---|---:|---:|---:|\n");
        for (String cache : CACHES) {
            Map<String, Object> byVariant = new LinkedHashMap<>();
            for (String v : VARIANTS) {
                LineCounts.Entry e = counts.get(v, point(THIN, cache));
                if (e != null) {
                    b.append(row(cache, "`" + v + "`", e, byVariant, v));
                }
            }
            if (!byVariant.isEmpty()) {
                out.put(cache, byVariant);
            }
        }
        LineCounts.Entry lin = counts.get(MUTEX, point(LINEAR, WHOLE));
        if (lin != null) {
            b.append(row("—", "dm-linear", lin, out, LINEAR));
        }
        return b.append('\n').append(perLookup(counts, out)).toString();
    }

    private static String row(String cache, String name, LineCounts.Entry e, Map<String, Object> out, String key) {
        double acq = acquisitions(e);
        double hold = e.perIo().getOrDefault(HOLD, Map.of()).getOrDefault("rmw", 0.0);
        double other = e.total() - acq - hold;
        Map<String, Double> kinds = byKind(e);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lock_acquisitions_per_io", acq);
        m.put("lock_ops_by_kind", kinds);
        m.put("hold_rmw_per_io", hold);
        m.put("other_ops_per_io", other);
        m.put("visits_per_io", Double.isNaN(e.visits()) ? null : e.visits());
        out.put(key, m);
        String byKind = kinds.isEmpty() ? "—" : String.join(", ", kinds.entrySet().stream()
                .map(k -> "`" + k.getKey() + "` " + Fmt.f(k.getValue(), 2)).toList());
        return "| " + cache + " | " + name + " | " + Fmt.f(acq, 2) + " | " + byKind + " | " + Fmt.f(hold, 2) + " | "
                + Fmt.f(other, 2) + " | " + (Double.isNaN(e.visits()) ? "—" : Fmt.f(e.visits(), 2)) + " |\n";
    }

    /** The pool's root_lock per I/O of rwsem-walk at {@code cache}: lookups per I/O, the missed ones twice; null without. */
    private static Double rootLock(LineCounts counts, String cache) {
        LineCounts.Entry e = counts.get(WALK, point(THIN, cache));
        return e == null ? null : e.perIo().getOrDefault("thin.root_lock", Map.of()).values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** A number the count run put in the point (the model's tree), or NaN. */
    private static double pointValue(LineCounts.Entry e, String key) {
        try {
            return Double.parseDouble(e.point().getOrDefault(key, "NaN"));
        } catch (NumberFormatException x) {
            return Double.NaN;
        }
    }

    /**
     * With the whole tree cached (no miss: no write lock, no walk begun again), rwsem-walk takes
     * its lock once per lookup, so its acquisitions per I/O are the lookups per I/O; the mutex's
     * and the rw_semaphore's over them are what each takes per lookup, and over the nodes a lookup
     * visits (the count run's {@code nodes_per_lookup}, from the model's tree) per node visited.
     */
    private static String perLookup(LineCounts counts, Map<String, Object> out) {
        LineCounts.Entry walk = counts.get(WALK, point(THIN, WHOLE));
        LineCounts.Entry mutex = counts.get(MUTEX, point(THIN, WHOLE));
        LineCounts.Entry rwsem = counts.get(RWSEM, point(THIN, WHOLE));
        if (walk == null || mutex == null || rwsem == null || !(acquisitions(walk) > 0)) {
            out.put("per_lookup", null);
            return "";
        }
        double lookups = acquisitions(walk);
        double nodes = pointValue(walk, "nodes_per_lookup");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lookups_per_io", lookups);
        m.put("nodes_per_lookup", Double.isNaN(nodes) ? null : nodes);
        StringBuilder b = new StringBuilder("With the whole tree cached");
        if (!Double.isNaN(nodes)) {
            b.append(" (the model's metadata ").append(Fmt.f(pointValue(walk, "nodes"), 0)).append(" nodes, the cache ")
                    .append(Fmt.f(pointValue(walk, "cache_blocks"), 0)).append(" buffers; a lookup visits ").append(Fmt.f(nodes, 0))
                    .append(" nodes)");
        }
        b.append(" no lookup misses, and `").append(WALK).append("` takes its lock once per lookup: ").append(Fmt.f(lookups, 2))
                .append(" lookups per I/O; per lookup");
        for (LineCounts.Entry e : List.of(mutex, rwsem)) {
            double perLookup = acquisitions(e) / lookups;
            m.put(e.variant() + "_per_lookup", perLookup);
            m.put(e.variant() + "_per_node", Double.isNaN(nodes) ? null : perLookup / nodes);
            b.append(e == mutex ? " `" : " and `").append(e.variant()).append("` takes its lock ").append(Fmt.f(perLookup, 2))
                    .append(" times").append(Double.isNaN(nodes) ? "" : " (" + Fmt.f(perLookup / nodes, 2) + " per node visited: its get"
                            + " and its release)");
        }
        out.put("per_lookup", m);
        return b.append(". With the small cache a lookup that misses is made again, blocking, as the pool's worker would (the pool's"
                + " `root_lock`, once per lookup, is taken " + (rootLock(counts, SMALL) == null ? "—" : Fmt.f(rootLock(counts, SMALL), 2))
                + " times per I/O there), and the missing node is read in under dm-bufio's lock taken for writing (its `cas` and"
                + " `rmw`), so there the counts hold the misses too.\n\n").toString();
    }
}
