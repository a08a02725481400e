package lab.jobspec;

/** fio's {@code ioengine=} values the lab accepts; the JVM engine ignores this key (and says so once). */
public enum IoEngine {
    /** {@code pread}/{@code pwrite}: synchronous, one I/O at a time ({@code FIO_SYNCIO} in fio). */
    PSYNC,
    /** io_uring through liburing: asynchronous, up to {@code iodepth} I/Os in flight. */
    IO_URING;

    /** Whether every I/O is done by the time it is queued, so that at most one is ever in flight. */
    public boolean synchronous() {
        return this == PSYNC;
    }
}
