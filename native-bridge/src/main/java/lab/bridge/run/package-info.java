/**
 * The bridge's load generator: runs a job file against real block devices or files with the
 * engines of {@code lab.bridge.engine}, and reports in fio's JSON shape with the engine's rules
 * ({@code lab.jobspec.stats}). Entry point: {@link lab.bridge.run.BridgeRun#run}.
 *
 * <p>Safety: every target is checked before any is opened for writing ({@link lab.bridge.run.Target});
 * writes to a block device go through {@link lab.bridge.run.DeviceOwnership}, the hook for the
 * kernel-scripts ownership registry, unless the caller owns the device explicitly.
 */
package lab.bridge.run;
