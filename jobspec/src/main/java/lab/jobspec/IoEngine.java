package lab.jobspec;

/** fio's {@code ioengine=} values the lab accepts; the JVM engine ignores this key (and says so once). */
public enum IoEngine { PSYNC, IO_URING }
