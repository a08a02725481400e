package lab.jobspec;

/** fio's {@code verify=} values the lab accepts. */
public enum Verify { NONE, CRC32C }
