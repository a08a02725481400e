package lab.engine.bench;

import lab.engine.block.Bio;
import lab.engine.block.BioEndIo;
import lab.engine.block.BlkStatus;
import lab.jobspec.SplitMix;

/**
 * What every I/O benchmark's worker state is (one fio job): its cpu (per-cpu slot), its random
 * stream, and the completion callback that counts the I/Os that ended OK. A benchmark's
 * {@code @State(Scope.Thread)} extends it and takes its cpu in its own trial setup.
 */
abstract class BioWorker implements BioEndIo {
    int cpu;
    SplitMix stream;
    long completed;

    /** Takes the next free slot of {@code cpus} and the stream seeded by it. */
    final void start(CpuIds cpus) {
        cpu = cpus.take();
        stream = new SplitMix(0x9E3779B97F4A7C15L * (cpu + 1));
    }

    @Override
    public void endIo(Bio bio) {
        if (bio.status == BlkStatus.OK) {
            completed++;
        }
    }
}
