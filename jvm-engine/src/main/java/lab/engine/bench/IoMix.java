package lab.engine.bench;

import lab.engine.block.Bio;
import lab.engine.block.ReqOp;
import lab.jobspec.Job;
import lab.jobspec.Rw;

/**
 * The per-I/O workload a benchmark takes from its fix's job ({@link ExampleJob}): fio's
 * {@code rw}, {@code rwmixread} and {@code bs}. Offsets are drawn at random from a SplitMix64
 * stream (no allocation, no random map), so only the random {@code rw} modes are accepted; the
 * direction of each I/O comes from the same draw, as fio's {@code get_rand_ddir()} draws 1..100
 * and reads when the draw is at most {@code rwmixread}.
 *
 * @param rw          the job's {@code rw}: randread, randwrite or randrw
 * @param readPercent 100 (randread), 0 (randwrite), or {@code rwmixread} (randrw)
 * @param bs          bytes per I/O
 */
record IoMix(Rw rw, int readPercent, int bs) {

    /** The workload of {@code job}; refuses a sequential {@code rw}. */
    static IoMix of(Job job) {
        Rw rw = job.rw();
        if (!rw.random()) {
            throw new IllegalArgumentException(ExampleJob.where(job) + ": rw=" + rw.name().toLowerCase()
                    + ": the benchmarks draw offsets at random; only randread, randwrite and randrw are modelled");
        }
        int readPercent = rw.mixed() ? job.rwmixread() : rw.reads() ? 100 : 0;
        return new IoMix(rw, readPercent, job.bs());
    }

    /**
     * Whether the I/O whose random draw is {@code r} reads, for a read share of
     * {@code readPercent}: from bits 40..63 of the draw (for a power-of-two block count below
     * 2^40, bits the offset does not use). At 100 and 0 only the comparisons with them run.
     */
    static boolean isRead(int readPercent, long r) {
        return readPercent == 100 || (readPercent != 0 && (int) ((r >>> 40) % 100) < readPercent);
    }

    /** The I/O of draw {@code r} over {@code blocks} blocks of {@code bs}: its direction, sector and size, into {@code bio}. */
    void prepare(Bio bio, long r, long blocks) {
        bio.op = isRead(readPercent, r) ? ReqOp.READ : ReqOp.WRITE;
        bio.sector = Long.remainderUnsigned(r, blocks) * (bs >>> Bio.SECTOR_SHIFT);
        bio.size = bs;
    }
}
