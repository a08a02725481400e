package lab.jobspec;

import java.util.BitSet;

/**
 * The writes of a clone that wait to be read back and checked: fio 3.33's {@code io_hist}
 * ({@code iolog.c}: {@code log_io_piece()}; {@code verify.c}: {@code get_next_verify()}).
 *
 * <p>Each write is logged as it is issued, in flight until its completion is {@link #landed}.
 * Like fio, the log has two shapes:
 * <ul>
 * <li>a list in issue order, for a random job with fio's random map (no block is written twice
 *     in a pass, so no piece can cover another): {@code io_hist_list};</li>
 * <li>otherwise pieces ordered by file, then offset, and a new write replaces every piece it
 *     overlaps (only its last write can be checked): {@code io_hist_tree}. fio orders files by
 *     the address of their {@code struct fio_file}; the lab by their index.</li>
 * </ul>
 * {@link #take} gives the first piece unless its write is still in flight, as fio's
 * {@code get_next_verify()}.
 *
 * <p>Offsets are relative to the job's region and multiples of the log's unit ({@link IoSequence}
 * hands out no other); the ordered shape keeps a start bit and a length per unit of each file's
 * region, the list a ring of pieces sized for a pass of the region's smallest blocks (grown,
 * once, if a job writes more). One piece at a time leaves in flight: a piece replaced while
 * its write is in flight lands with the write that replaced it. Owner-only; no allocation per
 * I/O but a ring's growth.
 */
public final class VerifyLog {

    /** fio's list: pieces in issue order. */
    private final boolean listed;
    /** Offsets and lengths are multiples of it. */
    private final long unit;
    /** Ordered shape: a piece starts at unit {@code u} of file {@code f} when {@code starts[f].get(u)}. */
    private final BitSet[] starts;
    /** Ordered shape: that piece's length. */
    private final int[][] lengths;
    /** Ordered shape: no piece of file {@code f} starts below unit {@code low[f]}. */
    private final int[] low;
    /** Per file, by starting unit: pieces whose write has not completed. */
    private final BitSet[] inFlight;
    private long[] ringOffset;
    private int[] ringLength;
    private int[] ringFile;
    private int head;
    private int count;
    /** fio's {@code io_hist_len}: pieces waiting. */
    private long size;

    private long offset;
    private int length;
    private int file;

    /**
     * @param job       the clone's job; its {@link Job#fileIoSize} are the regions
     * @param unit      a divisor of every offset and length the clone writes
     * @param listed    fio keeps a list (random job with its random map), else the ordered shape
     */
    VerifyLog(Job job, long unit, boolean listed) {
        this.unit = unit;
        this.listed = listed;
        int n = job.nrfiles();
        inFlight = new BitSet[n];
        long units = 0;
        for (int f = 0; f < n; f++) {
            long u = job.fileIoSize(f) / unit + 1;
            if (u > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("job '" + job.name() + "': the verify log of " + job.fileIoSize(f)
                        + " bytes in " + unit + "-byte units exceeds 2^31 units");
            }
            inFlight[f] = new BitSet((int) u);
            units += u;
        }
        if (listed) {
            starts = null;
            lengths = null;
            low = null;
            int cap = (int) Math.min(Integer.MAX_VALUE - 8, units);
            ringOffset = new long[cap];
            ringLength = new int[cap];
            ringFile = new int[cap];
        } else {
            starts = new BitSet[n];
            lengths = new int[n][];
            low = new int[n];
            for (int f = 0; f < n; f++) {
                int u = (int) (job.fileIoSize(f) / unit + 1);
                starts[f] = new BitSet(u);
                lengths[f] = new int[u];
            }
        }
    }

    /**
     * Whether fio keeps its random map for {@code job} ({@code init_random_map()}): a random job
     * without {@code norandommap}, with the tausworthe generators, a uniform distribution and the
     * default {@code blockalign} (fio turns the map off otherwise); then the log is a list.
     */
    static boolean listed(Job job) {
        return job.rw().random() && !job.norandommap() && job.randomGenerator() != RandomGenerator.LFSR
                && job.walk().distribution().kind() == RandomDistribution.Kind.RANDOM
                && job.walk().blockAlignRead() == 0 && job.walk().blockAlignWrite() == 0;
    }

    /** fio's {@code log_io_piece()}: the write just issued, in flight until {@link #landed}. */
    void log(int f, long off, int len) {
        int u = (int) (off / unit);
        inFlight[f].set(u);
        if (listed) {
            if (count == ringOffset.length) {
                grow();
            }
            int at = (head + count) % ringOffset.length;
            ringOffset[at] = off;
            ringLength[at] = len;
            ringFile[at] = f;
            count++;
            size++;
            return;
        }
        BitSet s = starts[f];
        int last = (int) ((off + len - 1) / unit);
        for (int p = s.previousSetBit(last); p >= 0 && p * unit + lengths[f][p] > off; p = s.previousSetBit(p - 1)) {
            s.clear(p); // fio: an overlapped piece is dropped, the new write's data is what counts
            size--;
        }
        s.set(u);
        lengths[f][u] = len;
        low[f] = Math.min(low[f], u);
        size++;
    }

    /** The write at {@code off} of file {@code f} has completed: its piece may be read back. */
    void landed(int f, long off) {
        inFlight[f].clear((int) (off / unit));
    }

    /**
     * fio's {@code unlog_io_piece()} from {@code io_completed()}: the write at {@code off} of file
     * {@code f} failed, and its piece leaves the log unread (nothing when none is in flight there).
     */
    void unlog(int f, long off) {
        int u = (int) (off / unit);
        if (!inFlight[f].get(u)) {
            return;
        }
        inFlight[f].clear(u);
        if (!listed) {
            if (starts[f].get(u)) {
                starts[f].clear(u);
                size--;
            }
            return;
        }
        int n = ringOffset.length;
        for (int i = count - 1; i >= 0; i--) { // the failed write is among the last issued
            int at = (head + i) % n;
            if (ringFile[at] == f && ringOffset[at] == off) {
                for (int j = i; j < count - 1; j++) {
                    int to = (head + j) % n;
                    int from = (head + j + 1) % n;
                    ringOffset[to] = ringOffset[from];
                    ringLength[to] = ringLength[from];
                    ringFile[to] = ringFile[from];
                }
                count--;
                size--;
                return;
            }
        }
    }

    /** fio's {@code io_hist_len}: pieces waiting. */
    long size() {
        return size;
    }

    /** Whether no piece waits. */
    boolean isEmpty() {
        return size == 0;
    }

    /** Whether the first piece's write is still in flight ({@link #take} would give nothing). */
    boolean headInFlight() {
        if (size == 0) {
            return false;
        }
        if (listed) {
            return inFlight[ringFile[head]].get((int) (ringOffset[head] / unit));
        }
        for (int f = 0; f < starts.length; f++) {
            int u = first(f);
            if (u >= 0) {
                return inFlight[f].get(u);
            }
        }
        return false;
    }

    /** The first unit of file {@code f} a piece starts at, or -1; moves its hint there. */
    private int first(int f) {
        int u = starts[f].nextSetBit(low[f]);
        low[f] = u < 0 ? Integer.MAX_VALUE : u;
        return u;
    }

    /**
     * fio's {@code get_next_verify()}: takes the first piece ({@link #offset()}, {@link #length()},
     * {@link #file()}); false when none waits or its write is in flight.
     */
    boolean take() {
        if (size == 0 || headInFlight()) {
            return false;
        }
        if (listed) {
            offset = ringOffset[head];
            length = ringLength[head];
            file = ringFile[head];
            head = (head + 1) % ringOffset.length;
            count--;
        } else {
            int f = 0;
            int u;
            while ((u = first(f)) < 0) {
                f++;
            }
            starts[f].clear(u);
            offset = u * unit;
            length = lengths[f][u];
            file = f;
        }
        size--;
        return true;
    }

    /** Region offset of the piece {@link #take} gave. */
    long offset() {
        return offset;
    }

    int length() {
        return length;
    }

    int file() {
        return file;
    }

    private void grow() {
        int n = ringOffset.length;
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, 2L * n + 16);
        long[] o = new long[cap];
        int[] l = new int[cap];
        int[] f = new int[cap];
        for (int i = 0; i < count; i++) {
            int from = (head + i) % n;
            o[i] = ringOffset[from];
            l[i] = ringLength[from];
            f[i] = ringFile[from];
        }
        ringOffset = o;
        ringLength = l;
        ringFile = f;
        head = 0;
    }
}
