package lab.engine.block;

/*
 * The lab kernel's switch block.lab_part_acct at "atomic" with count N
 * (kernel-scripts/kernel/patches/6.1/part-acct.patch, __lab_part_acct): the
 * shared atomics of 2015's accounting put back next to today's per-cpu
 * counters, N times each, on words of the accounted block_device (its own
 * line, not the stamp's):
 *
 *   start   N x (atomic_inc(&bd_lab_ref) "get", atomic_inc(&bd_lab_in_flight[rw]))
 *   done    N x (atomic_dec(&bd_lab_in_flight[rw]), atomic_dec(&bd_lab_ref) "put")
 *
 * 4N per accounted I/O (K = 4), at blk_account_io_start/done's place: after
 * the in-flight counting (BlkAccount). Chosen when the disk is made (Gendisk:
 * NONE for the switch off), never tested per I/O.
 *
 * Where the model simplifies: the words are the partition's (Partition's lab
 * line), as the patch's are the accounted bdev's; the whole disk's are not
 * bumped for a partition's I/O, as in the patch. Nothing reads them.
 */

/** The lab switch's extra shared atomics per accounted I/O: none, or N of each at start and done. */
abstract sealed class LabPartAcct permits LabPartAcct.None, LabPartAcct.Atomic {
    static final LabPartAcct NONE = new None();

    /** The switch at count {@code n}: {@link #NONE} for 0. */
    static LabPartAcct of(int n) {
        if (n < 0 || n > 1024) {
            throw new IllegalArgumentException("lab_part_acct_count " + n + " is out of range [0, 1024]");
        }
        return n == 0 ? NONE : new Atomic(n);
    }

    /** At the end of accounting's start, on the accounted partition. */
    abstract void start(Partition part, int rw);

    /** At accounting's done, after the in-flight decrement. */
    abstract void done(Partition part, int rw);

    /** The switch off: today's code. */
    static final class None extends LabPartAcct {
        @Override
        void start(Partition part, int rw) {
        }

        @Override
        void done(Partition part, int rw) {
        }

        @Override
        public String toString() {
            return "no lab atomics";
        }
    }

    /** The switch on at count {@link #n}. */
    static final class Atomic extends LabPartAcct {
        private final int n;

        Atomic(int n) {
            this.n = n;
        }

        @Override
        void start(Partition part, int rw) {
            for (int i = 0; i < n; i++) {
                part.labGet();
                part.labInFlightAdd(rw, 1);
            }
        }

        @Override
        void done(Partition part, int rw) {
            for (int i = 0; i < n; i++) {
                part.labInFlightAdd(rw, -1);
                part.labPut();
            }
        }

        @Override
        public String toString() {
            return "lab atomics x" + n;
        }
    }
}
