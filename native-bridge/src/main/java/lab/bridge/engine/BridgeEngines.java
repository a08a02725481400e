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
        return open(job, new int[] {fd});
    }

    /**
     * The engine of {@code job.ioengine()} over a clone's files, {@code fds[i]} for file {@code i}
     * ({@code nrfiles} of them; the descriptors stay the caller's).
     */
    public static BridgeEngine open(Job job, int[] fds) throws BridgeIoException {
        return switch (job.ioengine()) {
            case PSYNC -> PsyncEngine.open(job, fds);
            case SYNC -> SyncEngine.open(job, fds);
            case PVSYNC -> PvsyncEngine.open(job, fds);
            case IO_URING -> UringEngine.open(job, fds);
            case LIBAIO -> LibaioEngine.open(job, fds);
        };
    }
}
