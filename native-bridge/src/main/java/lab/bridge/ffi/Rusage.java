package lab.bridge.ffi;

/**
 * The parts of {@code struct rusage} the bridge reports, from {@link Libc#getrusage}; the two
 * {@code struct timeval}s are converted to nanoseconds (their resolution stays microseconds).
 *
 * @param utimeNs {@code ru_utime}: CPU time in user mode
 * @param stimeNs {@code ru_stime}: CPU time in the kernel
 * @param minflt  {@code ru_minflt}: page faults served without I/O
 * @param majflt  {@code ru_majflt}: page faults that needed I/O
 * @param nvcsw   {@code ru_nvcsw}: voluntary context switches (blocking waits)
 * @param nivcsw  {@code ru_nivcsw}: involuntary context switches (preemption)
 */
public record Rusage(long utimeNs, long stimeNs, long minflt, long majflt, long nvcsw, long nivcsw) {
}
