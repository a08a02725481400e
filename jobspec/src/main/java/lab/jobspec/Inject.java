package lab.jobspec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One contention point a job asks the JVM engine to add, the lab's key {@code inject} (not fio's):
 * {@code inject=STAGE:KIND[:COUNT]}, several separated by commas
 * ({@code inject=clone:cmpxchg,end_io:cmpxchg}). What Mikulas Patocka did by hand in the
 * dm-css-ref seed (a no-op {@code cmpxchg} on the css refcount in the clone and disassociate
 * paths) becomes an option: at {@code STAGE} of every bio's path the engine does {@code COUNT}
 * (default 1) operations of {@code KIND} on one line every worker shares.
 *
 * <p>This is the key's grammar, stated once; the engine ({@code lab.engine.inject}) gives each
 * stage and kind its code. The bridge, which drives real devices, ignores it.
 *
 * @param stage where on the bio's path
 * @param kind  what is done there
 * @param count how many times per passage, 1..{@value #MAX_COUNT}
 */
public record Inject(Stage stage, Kind kind, int count) {
    /** An injection's largest count: more is a benchmark of the primitive, not of a path. */
    public static final int MAX_COUNT = 128;

    /** A named point of a bio's path through the engine. */
    public enum Stage {
        /** The submitter, just before {@code submit_bio} of its own bio: once per I/O. */
        SUBMIT("submit"),
        /** dm, after a clone is made ({@code bio_alloc_clone}, {@code bio_clone_blkg_association}): once per layer. */
        CLONE("clone"),
        /** dm, in the target's {@code map}: once per layer. */
        MAP("map"),
        /** The submitter's completion callback of its own bio: once per I/O. */
        COMPLETE("complete"),
        /** dm, in {@code clone_endio} as the clone completes: once per layer. */
        END_IO("end_io");

        private final String id;

        Stage(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        /** Whether the stage lies inside a device-mapper layer (and so needs a dm stack to fire). */
        public boolean perLayer() {
            return this == CLONE || this == MAP || this == END_IO;
        }
    }

    /** What an injection does on its shared line. */
    public enum Kind {
        /** One locked read-modify-write ({@code atomic_inc}). */
        ATOMIC("atomic"),
        /** One no-op compare-and-exchange of the line's value with itself, the seed's probe. */
        CMPXCHG("cmpxchg"),
        /** A shared mutex taken and released. */
        MUTEX("mutex"),
        /** A shared rw_semaphore taken for read and released ({@code down_read}/{@code up_read}). */
        RWSEM_READ("rwsem-read"),
        /** An increment of the caller's own per-cpu slot: the control, no shared line. */
        PERCPU("percpu");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }
    }

    public Inject {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("count " + count + " is out of range [1, " + MAX_COUNT + "]");
        }
    }

    /** {@code STAGE:KIND[:COUNT]}, as written. */
    @Override
    public String toString() {
        return stage.id + ":" + kind.id + (count == 1 ? "" : ":" + count);
    }

    /** The list as the key writes it, comma-separated; empty for none. */
    public static String format(List<Inject> injects) {
        return String.join(",", injects.stream().map(Inject::toString).toList());
    }

    /**
     * Parses the key's value: {@code STAGE:KIND[:COUNT]} entries separated by commas; the empty
     * string and {@code none} mean none.
     *
     * @throws IllegalArgumentException saying which entry is wrong and what is allowed
     */
    public static List<Inject> parse(String value) {
        String v = value.strip();
        List<Inject> out = new ArrayList<>();
        if (v.isEmpty() || v.equals("none")) {
            return out;
        }
        for (String entry : v.split(",", -1)) {
            out.add(entry(entry.strip()));
        }
        return List.copyOf(out);
    }

    private static Inject entry(String e) {
        String[] p = e.split(":", -1);
        if (p.length < 2 || p.length > 3) {
            throw new IllegalArgumentException("'" + e + "' is not STAGE:KIND[:COUNT] (stages " + ids(Stage.values())
                    + "; kinds " + ids(Kind.values()) + ")");
        }
        Stage stage = null;
        for (Stage s : Stage.values()) {
            if (s.id.equals(p[0].toLowerCase(Locale.ROOT))) {
                stage = s;
            }
        }
        if (stage == null) {
            throw new IllegalArgumentException("'" + p[0] + "' in '" + e + "' is not a stage (" + ids(Stage.values()) + ")");
        }
        Kind kind = null;
        for (Kind k : Kind.values()) {
            if (k.id.equals(p[1].toLowerCase(Locale.ROOT))) {
                kind = k;
            }
        }
        if (kind == null) {
            throw new IllegalArgumentException("'" + p[1] + "' in '" + e + "' is not a kind (" + ids(Kind.values()) + ")");
        }
        int count = 1;
        if (p.length == 3) {
            try {
                count = Integer.parseInt(p[2]);
            } catch (NumberFormatException x) {
                throw new IllegalArgumentException("count '" + p[2] + "' in '" + e + "' is not a number");
            }
            if (count < 1 || count > MAX_COUNT) {
                throw new IllegalArgumentException("count " + count + " in '" + e + "' is out of range [1, " + MAX_COUNT + "]");
            }
        }
        return new Inject(stage, kind, count);
    }

    private static String ids(Enum<?>[] values) {
        List<String> ids = new ArrayList<>();
        for (Enum<?> v : values) {
            ids.add(v instanceof Stage s ? s.id : ((Kind) v).id);
        }
        return String.join(", ", ids);
    }
}
