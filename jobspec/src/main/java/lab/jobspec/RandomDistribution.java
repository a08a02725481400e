package lab.jobspec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code random_distribution}: how a random job picks its blocks, with fio 3.33's meaning
 * ({@code options.c}: {@code str_random_distribution_cb()}, {@code zone_split_ddir()};
 * {@code io_u.c}: {@code get_next_rand_offset()}; {@code lib/zipf.c}, {@code lib/gauss.c}).
 * {@link Picker} draws the blocks.
 *
 * <ul>
 * <li>{@code random} (the default): uniform.</li>
 * <li>{@code zipf[:THETA[:CENTER]]} (theta 1.1 by default, not 1), {@code pareto[:H[:CENTER]]}
 *     (h 0.2 by default, in (0, 1)), {@code normal[:DEV[:CENTER]]} (alias {@code gauss}; dev
 *     0..100, 0 by default): a rank drawn from the distribution, scattered over the region by
 *     fio's hash (rank times the 64-bit golden ratio), then moved by an offset (a random one, or
 *     {@code CENTER} of the region). No random map: blocks repeat, as in fio.</li>
 * <li>{@code zoned:A/S[:A/S...]}: A percent of the I/Os go to the next S percent of the region;
 *     the A must add up to 100, the S to at most 100, and an S left out (or 0) shares what the
 *     others leave. {@code zoned_abs:A/BYTES[:...]}: the same with zones of given sizes.</li>
 * </ul>
 * fio also takes a different zone list per direction ({@code zoned:R,W}); the lab takes one list
 * for both and refuses a comma.
 *
 * @param kind   which distribution
 * @param value  zipf's theta, pareto's h, normal's deviation in percent; 0 for the others
 * @param center {@code CENTER} in [0, 1], or -1 when not given (fio's -1)
 * @param zones  the zones of {@code zoned} and {@code zoned_abs} in order; empty for the others
 */
public record RandomDistribution(Kind kind, double value, double center, List<Zone> zones) {

    /** fio's {@code FIO_RAND_DIST_*}. */
    public enum Kind { RANDOM, ZIPF, PARETO, NORMAL, ZONED, ZONED_ABS }

    /**
     * One zone of {@code zoned} or {@code zoned_abs}.
     *
     * @param access percent of the I/Os that land in it
     * @param size   percent of the region ({@code zoned}) or bytes ({@code zoned_abs})
     */
    public record Zone(int access, long size) {
    }

    /** fio's default: uniform. */
    public static final RandomDistribution RANDOM = new RandomDistribution(Kind.RANDOM, 0, -1, List.of());

    /** fio's {@code FIO_DEF_ZIPF} and {@code FIO_DEF_PARETO}. */
    static final double DEFAULT_ZIPF = 1.1;
    static final double DEFAULT_PARETO = 0.2;
    /** fio's {@code ZONESPLIT_MAX}. */
    static final int MAX_ZONES = 256;

    /** Parses a value of {@code random_distribution}; {@link IllegalArgumentException} says what is wrong. */
    static RandomDistribution parse(String value) {
        String v = value.strip();
        int colon = v.indexOf(':');
        String name = (colon < 0 ? v : v.substring(0, colon)).toLowerCase(Locale.ROOT);
        String rest = colon < 0 ? null : v.substring(colon + 1).strip();
        return switch (name) {
            case "random" -> RANDOM;
            case "zipf" -> shaped(Kind.ZIPF, rest, DEFAULT_ZIPF);
            case "pareto" -> shaped(Kind.PARETO, rest, DEFAULT_PARETO);
            case "normal", "gauss" -> shaped(Kind.NORMAL, rest, 0);
            case "zoned" -> zoned(Kind.ZONED, rest);
            case "zoned_abs" -> zoned(Kind.ZONED_ABS, rest);
            default -> throw new IllegalArgumentException("'" + value + "' is not one of random, zipf, pareto, normal,"
                    + " zoned, zoned_abs");
        };
    }

    private static RandomDistribution shaped(Kind kind, String rest, double dflt) {
        double val = dflt;
        double center = -1;
        if (rest != null && !rest.isEmpty()) {
            int colon = rest.indexOf(':');
            val = number(colon < 0 ? rest : rest.substring(0, colon));
            if (colon >= 0) {
                center = number(rest.substring(colon + 1));
                if (center < 0 || center > 1) {
                    throw new IllegalArgumentException("the center " + rest.substring(colon + 1) + " is out of range"
                            + " [0, 1]");
                }
            }
        }
        switch (kind) {
            case ZIPF -> {
                if (val == 1.0) {
                    throw new IllegalArgumentException("zipf's theta must differ from 1.0");
                }
            }
            case PARETO -> {
                if (val <= 0 || val >= 1) {
                    throw new IllegalArgumentException("pareto's h " + val + " is out of range (0, 1)");
                }
            }
            default -> {
                if (val < 0 || val >= 100) {
                    throw new IllegalArgumentException("normal's deviation " + val + " is out of range [0, 100)");
                }
            }
        }
        return new RandomDistribution(kind, val, center, List.of());
    }

    private static double number(String s) {
        try {
            return Double.parseDouble(s.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s.strip() + "' is not a number");
        }
    }

    /** fio's {@code split_parse_ddir()} and {@code zone_split_ddir()} for one list. */
    private static RandomDistribution zoned(Kind kind, String rest) {
        String what = kind == Kind.ZONED ? "zoned" : "zoned_abs";
        if (rest == null || rest.isEmpty()) {
            throw new IllegalArgumentException(what + " needs its zones, ACCESS/SIZE separated by ':' (zoned:50/5:50/)");
        }
        if (rest.contains(",")) {
            throw new IllegalArgumentException(what + " with a list per direction (READ,WRITE) is not implemented by the"
                    + " lab; give one list for both");
        }
        List<Zone> zones = new ArrayList<>();
        int access = 0;
        long sized = 0;
        int missing = 0;
        for (String part : rest.split(":", -1)) {
            if (part.isEmpty()) {
                break; // fio stops at an empty entry
            }
            if (zones.size() == MAX_ZONES) {
                throw new IllegalArgumentException(what + " has more than " + MAX_ZONES + " zones");
            }
            int slash = part.indexOf('/');
            int a = (int) percent(slash < 0 ? part : part.substring(0, slash), what);
            long size;
            String sz = slash < 0 ? "" : part.substring(slash + 1).strip();
            if (kind == Kind.ZONED) {
                size = sz.isEmpty() ? 0 : Math.min(100, percent(sz, what));
            } else {
                size = sz.isEmpty() ? 0 : FioUnits.size(sz);
            }
            if (size == 0 && kind == Kind.ZONED) {
                missing++;
            }
            access += a;
            sized += size;
            zones.add(new Zone(a, size));
        }
        if (access > 100 || (kind == Kind.ZONED && sized > 100)) {
            throw new IllegalArgumentException(what + "'s percentages add up to more than 100");
        }
        if (access < 100) {
            throw new IllegalArgumentException(what + "'s access percentages add up to " + access + ", not 100");
        }
        if (missing > 0) {
            // fio: a lone zone without a size gets (100 - 100) / 1 = 0 percent, every I/O at block 0
            long share = (100 - (missing == 1 && zones.size() == 1 ? 100 : sized)) / missing;
            zones.replaceAll(z -> z.size() == 0 ? new Zone(z.access(), share) : z);
        }
        return new RandomDistribution(kind, 0, -1, List.copyOf(zones));
    }

    private static long percent(String s, String what) {
        try {
            long p = Long.parseLong(s.strip());
            if (p < 0) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s.strip() + "' in " + what + " is not a whole percentage");
        }
    }

    /** Blocks repeat and no random map is kept: every kind but {@code random}, {@code zoned} and {@code zoned_abs}. */
    boolean withoutMap() {
        return kind == Kind.ZIPF || kind == Kind.PARETO || kind == Kind.NORMAL;
    }

    /** As fio's option is written. */
    public String fio() {
        return switch (kind) {
            case RANDOM -> "random";
            case ZIPF, PARETO, NORMAL -> kind.name().toLowerCase(Locale.ROOT) + ":" + value
                    + (center < 0 ? "" : ":" + center);
            case ZONED, ZONED_ABS -> kind.name().toLowerCase(Locale.ROOT) + ":" + String.join(":",
                    zones.stream().map(z -> z.access() + "/" + z.size()).toList());
        };
    }

    /**
     * Draws block numbers of one region by the distribution: fio's {@code zipf_next()},
     * {@code pareto_next()}, {@code gauss_next()} and the zoned kinds' zone, then a uniform block
     * in it. One per file of a worker; not thread-safe; no allocation per draw.
     */
    static final class Picker {
        /** fio's {@code GOLDEN_RATIO_64}, the multiplier of {@code __hash_u64()}. */
        private static final long GOLDEN_RATIO_64 = 0x61C8864680B583EBL;
        /** fio's {@code FRAND32_MAX}. */
        private static final double FRAND32_MAX = 0xFFFF_FFFFL;
        /** fio's {@code ZIPF_MAX_GEN}: zeta(n) is summed over at most this many terms. */
        private static final long ZIPF_MAX_GEN = 10_000_000L;
        private static final int GAUSS_ITERS = 12;

        private final RandomDistribution d;
        private final SplitMix rand;
        private final SplitMix zone;
        private final long nranges;
        private final long randOff;
        private final double zetan;
        private final double zeta2;
        private final double paretoPow;
        private final long stddev;
        /** For each draw 1..100, the zone's start and end: percent ({@code zoned}) or bytes ({@code zoned_abs}). */
        private final long[] zoneStart;
        private final long[] zoneEnd;

        /**
         * @param nranges blocks of the region in the job's smallest block size (fio's
         *                {@code __init_rand_distribution()}: rounded up)
         */
        Picker(RandomDistribution d, long nranges, SplitMix rand, SplitMix zone) {
            this.d = d;
            this.rand = rand;
            this.zone = zone;
            this.nranges = Math.max(1, nranges);
            long off = rand.next32();
            if (d.kind == Kind.NORMAL) {
                off = d.center < 0 ? 0 : (long) (this.nranges * (d.center - 0.5));
            } else if (d.center >= 0) {
                off = (long) (this.nranges * d.center);
            }
            randOff = off;
            zetan = d.kind == Kind.ZIPF ? zeta(Math.min(this.nranges, ZIPF_MAX_GEN), d.value) : 0;
            zeta2 = Math.pow(1.0, d.value) + Math.pow(0.5, d.value);
            paretoPow = Math.log(d.value) / Math.log(1.0 - d.value);
            long dev = d.value == 0 ? 0 : (long) Math.ceil(this.nranges * d.value / 100.0);
            stddev = Math.min(dev, this.nranges / 2);
            zoneStart = new long[100];
            zoneEnd = new long[100];
            long s = 0;
            int a = 0;
            for (Zone z : d.zones) {
                for (int j = a; j < Math.min(100, a + z.access()); j++) {
                    zoneStart[j] = s;
                    zoneEnd[j] = s + z.size();
                }
                a += z.access();
                s += z.size();
            }
        }

        private static double zeta(long n, double theta) {
            double sum = 0;
            for (long i = 0; i < n; i++) {
                sum += Math.pow(1.0 / (i + 1), theta);
            }
            return sum;
        }

        /** {@code zoned} or {@code zoned_abs}: blocks come from {@link #zoned}, else from {@link #shaped}. */
        boolean byZone() {
            return d.kind == Kind.ZONED || d.kind == Kind.ZONED_ABS;
        }

        /** zipf, pareto or normal: a block in [0, nranges). */
        long shaped() {
            long val = switch (d.kind) {
                case ZIPF -> zipf();
                case PARETO -> (long) ((nranges - 1) * Math.pow(rand.next32() / FRAND32_MAX, paretoPow));
                default -> gauss();
            };
            return Long.remainderUnsigned(val * GOLDEN_RATIO_64 + randOff, nranges);
        }

        private long zipf() {
            double alpha = 1.0 / (1.0 - d.value);
            double eta = (1.0 - Math.pow(2.0 / nranges, 1.0 - d.value)) / (1.0 - zeta2 / zetan);
            double uni = rand.next32() / FRAND32_MAX;
            double z = uni * zetan;
            long val;
            if (z < 1.0) {
                val = 1;
            } else if (z < 1.0 + Math.pow(0.5, d.value)) {
                val = 2;
            } else {
                val = 1 + (long) (nranges * Math.pow(eta * uni - eta + 1.0, alpha));
            }
            return val - 1;
        }

        private long gauss() {
            long sum = 0;
            for (int i = 0; i < GAUSS_ITERS; i++) {
                sum += Long.remainderUnsigned(rand.next32(), nranges + 1);
            }
            sum = (sum + GAUSS_ITERS - 1) / GAUSS_ITERS;
            if (stddev > 0) {
                long dev = (long) (stddev * (rand.next32() / (FRAND32_MAX + 1.0))) - stddev / 2;
                while (dev + sum >= nranges) {
                    dev /= 2;
                }
                sum += dev;
            }
            return sum;
        }

        /**
         * zoned or zoned_abs: the zone of a 1..100 draw, then a uniform block in it, of
         * {@code lastBlock} blocks of {@code align} bytes in the region (fio's
         * {@code __get_next_rand_offset_zoned()}, {@code _zoned_abs()}); -1 when a
         * {@code zoned_abs} zone ends past the region (fio: "zoned_abs sizes exceed file size").
         */
        long zoned(long lastBlock, long align, double u) {
            int v = zone.percent() - 1;
            if (d.kind == Kind.ZONED) {
                long from = zoneStart[v] * lastBlock / 100;
                long blocks = lastBlock * (zoneEnd[v] - zoneStart[v]) / 100;
                return (long) (blocks * u) + from;
            }
            long from = zoneStart[v] / align;
            long end = zoneEnd[v] / align;
            if (end > lastBlock) {
                return -1;
            }
            return (long) ((end - from) * u) + from;
        }
    }
}
