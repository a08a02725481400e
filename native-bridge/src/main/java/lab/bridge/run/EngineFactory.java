package lab.bridge.run;

import lab.bridge.engine.BridgeEngine;
import lab.bridge.engine.BridgeEngines;
import lab.jobspec.Job;

/**
 * Makes one clone's engine over an open descriptor; called on the clone's own thread (an
 * io_uring set up with {@code IORING_SETUP_SINGLE_ISSUER} belongs to the thread that made it).
 * The run's default is {@code BridgeEngines.open}; tests pass engines of their own.
 */
@FunctionalInterface
public interface EngineFactory {
    /** The engines the run uses unless a test gives others: {@link BridgeEngines#open}, one file or several. */
    EngineFactory REAL = new EngineFactory() {
        @Override
        public BridgeEngine open(Job job, int fd) throws Exception {
            return BridgeEngines.open(job, fd);
        }

        @Override
        public BridgeEngine open(Job job, int[] fds) throws Exception {
            return BridgeEngines.open(job, fds);
        }
    };

    BridgeEngine open(Job job, int fd) throws Exception;

    /**
     * The engine over a clone's files ({@code nrfiles}), {@code fds[i]} for file {@code i}. A
     * factory that only implements {@link #open(Job, int)} (a test's) opens one file.
     */
    default BridgeEngine open(Job job, int[] fds) throws Exception {
        if (fds.length != 1) {
            throw new UnsupportedOperationException("this engine factory opens one file, not nrfiles=" + fds.length);
        }
        return open(job, fds[0]);
    }
}
