package lab.bridge.engine;

import lab.jobspec.Job;

/** Opens the engine a job's {@code ioengine=} names. */
public final class BridgeEngines {
    private BridgeEngines() {
    }

    /**
     * The engine of {@code job.ioengine()} over {@code fd} (which stays the caller's; close the
     * engine before the fd): {@link PsyncEngine}, {@link SyncEngine}, {@link PvsyncEngine},
     * {@link UringEngine} or {@link LibaioEngine}.
     */
    public static BridgeEngine open(Job job, int fd) throws BridgeIoException {
        return switch (job.ioengine()) {
            case PSYNC -> PsyncEngine.open(job, fd);
            case SYNC -> SyncEngine.open(job, fd);
            case PVSYNC -> PvsyncEngine.open(job, fd);
            case IO_URING -> UringEngine.open(job, fd);
            case LIBAIO -> LibaioEngine.open(job, fd);
        };
    }
}
