/**
 * Calibrated uncontended CPU work: {@link lab.engine.work.CpuWork}, spent per I/O by the engine's
 * devices ({@code base_ns}) and between operations by {@code lab.engine.bench.Primitives}
 * ({@code gapNs}); {@link lab.engine.work.CalibratedWork} turns JMH's
 * {@code Blackhole.consumeCPU} tokens into nanoseconds by a measurement in the same JVM.
 */
package lab.engine.work;
