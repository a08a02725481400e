package lab.jobspec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The sizes of one direction's I/Os: fio's {@code min_bs}, {@code max_bs} and {@code bssplit}
 * of that direction. A plain {@code bs} is {@code min == max} with no split; {@code bsrange} is
 * {@code min < max} with no split; {@code bssplit} lists its entries.
 *
 * <p>How an I/O's length is drawn (fio 3.33's {@code get_next_buflen()}, see {@link IoSequence}):
 * for a range, {@code min + max * u} with {@code u} uniform in [0, 1), rounded down to a multiple
 * of {@code min} and capped at {@code max} (so {@code bsrange=4k-32k} gives the eight multiples
 * of 4k equally often, and a {@code max} that is no multiple of {@code min} also occurs); for a
 * split, the first entry, in fio's order, whose cumulative share covers the draw and whose size
 * fits before the end of the region, then the same rounding.
 *
 * @param min   the smallest size any I/O can have (every I/O is a multiple of it or {@code max})
 * @param max   the largest size; I/O buffers must hold it
 * @param split {@code bssplit}'s entries in fio's order (ascending share, ties as written) with
 *              each blank share filled in; empty for a plain size or a range
 */
public record BlockSizes(int min, int max, List<Split> split) {

    /** fio's {@code BSSPLIT_MAX}: entries per direction. */
    static final int MAX_SPLITS = 64;

    /** One {@code bssplit} entry: a size and its share of the I/Os, in percent. */
    public record Split(int bs, int percent) {
    }

    public BlockSizes {
        split = List.copyOf(split);
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("block sizes " + min + "-" + max);
        }
    }

    /** A single size: what {@code bs} gives. */
    public static BlockSizes fixed(int bs) {
        return new BlockSizes(bs, bs, List.of());
    }

    /** Every I/O has the same size. */
    public boolean isFixed() {
        return min == max;
    }

    /** fio's spelling: {@code 4096}, {@code 4096-32768}, or {@code 4096/10:32768/40:65536/50}. */
    public String fio() {
        if (!split.isEmpty()) {
            StringBuilder b = new StringBuilder();
            for (Split s : split) {
                b.append(b.isEmpty() ? "" : ":").append(s.bs()).append('/').append(s.percent());
            }
            return b.toString();
        }
        return isFixed() ? Integer.toString(min) : min + "-" + max;
    }

    /**
     * {@code bsrange}'s value for one direction: {@code MIN-MAX} (or {@code MIN:MAX}, as fio also
     * reads it); a reversed range is swapped, as fio swaps it.
     */
    static BlockSizes range(String text, int maxBs) {
        int sep = text.indexOf('-');
        if (sep < 0) {
            sep = text.indexOf(':');
        }
        if (sep < 0) {
            throw new IllegalArgumentException("'" + text + "' is not a range (MIN-MAX, e.g. 4k-32k)");
        }
        int a = size(text.substring(0, sep).strip(), maxBs);
        int b = size(text.substring(sep + 1).strip(), maxBs);
        return new BlockSizes(Math.min(a, b), Math.max(a, b), List.of());
    }

    /**
     * {@code bssplit}'s value for one direction: {@code SIZE/PERCENT} entries joined by {@code :}.
     * A blank share ({@code 4k/} or {@code 4k}) shares what the others leave, evenly (fio's integer
     * division: a remainder goes to the entry fio tries last); fio reads a share of {@code 0} as
     * blank too. The lab refuses what fio would silently bend: a share over 100 (fio caps it),
     * shares that add to more than 100, or, with no blank share, to less (fio gives the rest to
     * the entry it tries last), and more than 64 entries (fio drops the rest).
     */
    static BlockSizes split(String text, int maxBs) {
        String[] parts = text.split(":", -1);
        if (parts.length > MAX_SPLITS) {
            throw new IllegalArgumentException(parts.length + " entries; fio takes at most " + MAX_SPLITS);
        }
        List<int[]> entries = new ArrayList<>();
        int given = 0;
        int blank = 0;
        for (String part : parts) {
            String p = part.strip();
            if (p.isEmpty()) {
                throw new IllegalArgumentException("empty entry in '" + text + "' (SIZE/PERCENT:SIZE/PERCENT...)");
            }
            int slash = p.indexOf('/');
            int bs = size(slash < 0 ? p : p.substring(0, slash).strip(), maxBs);
            String share = slash < 0 ? "" : p.substring(slash + 1).strip();
            int percent = share.isEmpty() ? 0 : percent(share);
            if (percent == 0) {
                blank++;
            }
            given += percent;
            entries.add(new int[] {bs, percent});
        }
        if (given > 100) {
            throw new IllegalArgumentException("the shares of '" + text + "' add to " + given + "%, more than 100");
        }
        if (blank == 0 && given != 100) {
            throw new IllegalArgumentException("the shares of '" + text + "' add to " + given
                    + "%, not 100 (leave one blank, e.g. 4k/, to take the rest)");
        }
        if (entries.size() == 1) {
            return fixed(entries.getFirst()[0]);
        }
        int share = blank == 0 ? 0 : (100 - given) / blank;
        List<Split> split = new ArrayList<>();
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (int[] e : entries) {
            split.add(new Split(e[0], e[1] == 0 ? share : e[1]));
            min = Math.min(min, e[0]);
            max = Math.max(max, e[0]);
        }
        split.sort(Comparator.comparingInt(Split::percent)); // fio's qsort by share (glibc's is stable)
        return new BlockSizes(min, max, split);
    }

    private static int size(String text, int maxBs) {
        long v = FioUnits.size(text);
        if (v < 1 || v > maxBs) {
            throw new IllegalArgumentException("block size '" + text + "' (" + v + ") is out of range [1, " + maxBs + "]");
        }
        return (int) v;
    }

    private static int percent(String text) {
        long v = FioUnits.count(text);
        if (v > 100) {
            throw new IllegalArgumentException("share '" + text + "' is out of range [0, 100]");
        }
        return (int) v;
    }
}
