package lab.bridge.engine;

import lab.jobspec.Job;

/** Opens the engine a job's {@code ioengine=} names. */
public final class BridgeEngines {
    private BridgeEngines() {
    }

    /**
     * {@link PsyncEngine} for {@code psync}, {@link UringEngine} for {@code io_uring}, over
     * {@code fd} (which stays the caller's; close the engine before the fd).
     */
    public static BridgeEngine open(Job job, int fd) throws BridgeIoException {
        return switch (job.ioengine()) {
            case PSYNC -> PsyncEngine.open(job, fd);
            case IO_URING -> UringEngine.open(job, fd);
        };
    }
}
