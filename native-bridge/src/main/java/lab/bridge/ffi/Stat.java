package lab.bridge.ffi;

/**
 * The parts of {@code struct stat} the bridge needs, from {@link Libc#fstat}.
 *
 * @param mode {@code st_mode}: file type and permission bits
 * @param rdev {@code st_rdev}: the device number of a device special file, 0 otherwise
 * @param size {@code st_size}: bytes of a regular file; 0 for a block device (ask
 *             {@link Libc#blkGetSize64})
 */
public record Stat(int mode, long rdev, long size) {
    private static final int S_IFMT = 0170000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFREG = 0100000;

    public boolean isBlockDevice() {
        return (mode & S_IFMT) == S_IFBLK;
    }

    public boolean isCharDevice() {
        return (mode & S_IFMT) == S_IFCHR;
    }

    public boolean isRegularFile() {
        return (mode & S_IFMT) == S_IFREG;
    }

    /** glibc's {@code gnu_dev_major(st_rdev)}. */
    public int major() {
        return (int) (((rdev >>> 8) & 0xfff) | ((rdev >>> 32) & ~0xfffL));
    }

    /** glibc's {@code gnu_dev_minor(st_rdev)}. */
    public int minor() {
        return (int) ((rdev & 0xff) | ((rdev >>> 12) & ~0xffL));
    }
}
