package lab.bridge.run;

import lab.bridge.engine.BridgeEngine;
import lab.jobspec.Job;

/**
 * Makes one clone's engine over an open descriptor; called on the clone's own thread (an
 * io_uring set up with {@code IORING_SETUP_SINGLE_ISSUER} belongs to the thread that made it).
 * The run's default is {@code BridgeEngines.open}; tests pass engines of their own.
 */
@FunctionalInterface
public interface EngineFactory {
    BridgeEngine open(Job job, int fd) throws Exception;
}
