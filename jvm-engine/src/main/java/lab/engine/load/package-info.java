/**
 * The workload generator: runs a job file ({@code lab.jobspec}) against an engine device with
 * fio's meaning of its keys, and reports in fio's JSON shape ({@code lab.jobspec.report}).
 * Entry point: {@link lab.engine.load.Workload#run(lab.jobspec.JobFile, DeviceKind, java.io.PrintStream)}.
 *
 * <p>Model notes: a clone ({@link lab.engine.load.JobThread}) is one platform thread owning one
 * per-cpu slot; {@code iodepth} is bios in flight per clone, reaped by polling the device (the
 * engine's devices complete inline or on poll, never from another thread); {@code ioengine} is
 * ignored and said so once per run; latencies come from {@code System.nanoTime()} around
 * {@code submitBio} and {@code endIo}; CPU times from {@code ThreadMXBean}; context switches from
 * {@code /proc/thread-self/status}.
 */
package lab.engine.load;
