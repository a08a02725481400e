package lab.jobspec;

/**
 * fio's {@code ioengine=} values the lab accepts; the JVM engine ignores this key (and says so once).
 * The bridge runs each with fio 3.33's system calls (see its {@code BridgeEngines}).
 */
public enum IoEngine {
    /** {@code pread}/{@code pwrite}: synchronous, one I/O at a time ({@code FIO_SYNCIO} in fio). */
    PSYNC("psync"),
    /** {@code lseek} (only when the offset is not where the last I/O ended) then {@code read}/{@code write}. */
    SYNC("sync"),
    /** {@code preadv}/{@code pwritev} with one {@code iovec}. */
    PVSYNC("pvsync"),
    /** io_uring through liburing: asynchronous, up to {@code iodepth} I/Os in flight. */
    IO_URING("io_uring"),
    /**
     * Linux native AIO ({@code io_setup}/{@code io_submit}/{@code io_getevents}): asynchronous,
     * up to {@code iodepth} I/Os in flight; only with {@code direct=1} is a block device's I/O
     * really asynchronous (the kernel does buffered AIO synchronously inside {@code io_submit}).
     */
    LIBAIO("libaio");

    private final String fioName;

    IoEngine(String fioName) {
        this.fioName = fioName;
    }

    /** The name as a job file writes it, fio's. */
    public String fioName() {
        return fioName;
    }

    /** Whether every I/O is done by the time it is queued, so that at most one is ever in flight. */
    public boolean synchronous() {
        return this == PSYNC || this == SYNC || this == PVSYNC;
    }

    /** The engine a job file names, or null when the lab runs no engine of that name. */
    public static IoEngine byFioName(String name) {
        for (IoEngine e : values()) {
            if (e.fioName.equals(name)) {
                return e;
            }
        }
        return null;
    }

    /** Every name the lab accepts, comma-separated, for an error message. */
    public static String names() {
        StringBuilder sb = new StringBuilder();
        for (IoEngine e : values()) {
            sb.append(sb.isEmpty() ? "" : ", ").append(e.fioName);
        }
        return sb.toString();
    }
}
