package lab.bridge.run;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import lab.bridge.ffi.Errno;
import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.bridge.ffi.Stat;
import lab.jobspec.BlockSizes;
import lab.jobspec.Job;

/**
 * One job's target, checked in full before anything is written to it: fio's
 * {@code setup_files()} plus the lab's safety rule for block devices.
 *
 * <h2>Order of the checks ({@link #check})</h2>
 * <ol>
 * <li>A name: {@code --filename} or the job's {@code filename=}, in its {@code directory=}; with a
 *     directory and no filename, fio's default names {@code NAME.CLONE.FILE}, {@code nrfiles}
 *     files per clone ({@link Job#path(int, int)}), one target each, whose region is the file's
 *     share of {@code size} ({@link Job#fileIoSize}).</li>
 * <li>A file that does not exist is refused, unless the job names a {@code directory}: then the
 *     lab makes it there at {@link #open} (the folder must exist and be writable; nothing is
 *     made while a check can still fail) and lays it out, sparse, to {@code filesize}, or to
 *     {@code offset + size}, for read jobs as well, as fio lays out a file. fio fills it with data;
 *     a verify read of a file the lab just made stops at its first block, unwritten. A file the lab
 *     makes is the lab's; it is left in place after the run, as fio's {@code unlink=0}. With
 *     {@code direct=1}, a file system without {@code O_DIRECT} shows only when the made file is
 *     opened: the run then stops before any I/O, the empty file left behind.</li>
 * <li>{@code stat} through the file system, without opening: it exists, and is a block device or
 *     a regular file.</li>
 * <li>A job that writes to a block device asks {@link DeviceOwnership} (the lab's registry) unless
 *     the run was given {@code --i-own-this-device}; a refusal ends here, so a refused device is
 *     never opened for writing.</li>
 * <li>A read-only open ({@code O_DIRECT} when {@code direct=1}): the size (BLKGETSIZE64, or
 *     {@code st_size}) and the logical block size (BLKSSZGET, 512 for a file); closed again.</li>
 * <li>The size covers {@code offset + size}; a regular file a write job needs larger is extended
 *     by {@link #open}, as fio lays out a file; a block device is never extended. A read job's
 *     file counts as laid out to the largest region of the write jobs on it before it in the job
 *     file (e.g. a write job, then a {@code stonewall} read job); fio also lays out a file for a
 *     read job alone, the lab refuses that.</li>
 * <li>With {@code direct=1}, {@code bs} and {@code offset} are multiples of the logical block
 *     size; with {@code verify}, {@code bs} holds a {@link VerifyHeader}.</li>
 * </ol>
 * {@link BridgeRun} then holds every block device a job writes with a {@link DeviceClaim}
 * ({@code O_EXCL}), and {@link #open} opens for the run: the claim's descriptor where one holds
 * the device with this job's {@code direct=}, else a descriptor of the target's own,
 * {@code O_RDWR} only when the job writes.
 *
 * <p>Owned by the thread that runs {@link BridgeRun}; the clones only read {@link #fd()}.
 */
final class Target {

    final Job job;
    /** Which of the clone's files ({@code nrfiles}) this is: 0 for the first or only one. */
    final int file;
    /** The clones that run on this target: {@code [firstClone, firstClone + cloneCount)}. */
    final int firstClone;
    final int cloneCount;
    /** A regular file the lab makes in the job's {@code directory} at {@link #open}: it does not exist yet. */
    final boolean create;
    /** The name as given. */
    final String path;
    /** The name with symbolic links resolved. */
    final String realPath;
    final boolean block;
    final long rdev;
    /** Bytes, at check time; after {@link #open}, at least {@code offset + size} for a file. */
    private long sizeBytes;
    final int logicalBlockSize;
    private int fd = -1;
    /** Whether {@link #fd} is a {@link DeviceClaim}'s, which closes it. */
    private boolean claimed;

    private Target(Job job, int file, String path, String realPath, boolean block, long rdev, long sizeBytes, int lbs,
                   int firstClone, int cloneCount, boolean create) {
        this.file = file;
        this.firstClone = firstClone;
        this.cloneCount = cloneCount;
        this.create = create;
        this.job = job;
        this.path = path;
        this.realPath = realPath;
        this.block = block;
        this.rdev = rdev;
        this.sizeBytes = sizeBytes;
        this.logicalBlockSize = lbs;
    }

    /**
     * Checks {@code job}'s target; opens nothing for writing.
     *
     * @param path     the target's name: {@code --filename}, or the job's ({@link Job#path(int, int)})
     * @param file     which of the clone's files it is ({@code nrfiles}; 0 for one): its region is
     *                 {@link Job#fileIoSize} bytes from {@code offset}
     * @param clones     the clones that run on it: {@code [firstClone, firstClone + cloneCount)}
     * @param iOwn     {@code --i-own-this-device}: skip {@code ownership}
     * @param laidOut  regular file (real path) to the size the write jobs checked before this one
     *                 will extend it to; this job's own is added when it writes
     */
    static Target check(Job job, String path, int file, int firstClone, int cloneCount, boolean iOwn,
                        DeviceOwnership ownership, Map<String, Long> laidOut) throws BridgeSetupException {
        String who = "job '" + job.name() + "' (" + job.source() + ":" + job.line() + ")";
        if (path == null || path.isBlank()) {
            throw new BridgeSetupException(who + ": no target: give --filename DEV, or filename= or directory= in the"
                    + " job file");
        }
        boolean writes = job.rw().modifies(); // a trim destroys data as a write does
        Map<String, Object> attrs;
        String real;
        try {
            attrs = Files.readAttributes(Path.of(path), "unix:mode,rdev,size");
            real = Path.of(path).toRealPath().toString();
        } catch (NoSuchFileException e) {
            if (job.directory() != null) {
                return toCreate(job, path, file, firstClone, cloneCount, who, laidOut);
            }
            throw new BridgeSetupException(who + ": " + path + ": no such file or device; check the name"
                    + " (ls -l " + path + "), or create the device first (kernel-scripts)");
        } catch (AccessDeniedException e) {
            throw new BridgeSetupException(who + ": " + path + ": permission denied; run as root or grant access");
        } catch (IOException | UnsupportedOperationException e) {
            throw new BridgeSetupException(who + ": " + path + ": cannot stat it: " + e.getMessage());
        }
        Stat st = new Stat((Integer) attrs.get("mode"), (Long) attrs.get("rdev"), (Long) attrs.get("size"));
        if (!st.isBlockDevice() && !st.isRegularFile()) {
            throw new BridgeSetupException(who + ": " + path + " is neither a block device nor a regular file;"
                    + " name a block device (/dev/zramN, /dev/loopN) or a file");
        }
        if (writes && st.isBlockDevice() && !iOwn) {
            Optional<String> no = ownership.refusal(path, st.major(), st.minor());
            if (no.isPresent()) {
                throw refusal(who, path, st, no.get());
            }
        }
        long size;
        int lbs;
        int probe = open(who, path, Libc.O_RDONLY | (job.direct() ? Libc.O_DIRECT : 0), job.direct());
        try {
            Stat now = Libc.fstat(probe);
            if (now.rdev() != st.rdev() || now.isBlockDevice() != st.isBlockDevice()) {
                throw new BridgeSetupException(who + ": " + path + " changed while being checked; run again");
            }
            size = st.isBlockDevice() ? Libc.blkGetSize64(probe) : now.size();
            lbs = st.isBlockDevice() ? Libc.blkSszGet(probe) : 512;
        } catch (ErrnoException e) {
            throw new BridgeSetupException(who + ": " + e.getMessage(), e);
        } finally {
            closeQuietly(probe);
        }
        Target t = new Target(job, file, path, real, st.isBlockDevice(), st.rdev(), size, lbs, firstClone, cloneCount,
                false);
        t.checkGeometry(who, st.isBlockDevice() ? size : Math.max(size, laidOut.getOrDefault(real, 0L)));
        if (!st.isBlockDevice() && writes) {
            laidOut.merge(real, t.regionEnd(), Math::max);
        }
        return t;
    }

    /**
     * A file of the job's {@code directory} that does not exist yet: the folder must be one the
     * lab may write in; nothing is made until {@link #open}, after every job's check.
     */
    private static Target toCreate(Job job, String path, int file, int firstClone, int cloneCount, String who,
                                   Map<String, Long> laidOut) throws BridgeSetupException {
        Path parent = Path.of(path).toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new BridgeSetupException(who + ": directory " + parent + " does not exist; create it first (the lab"
                    + " makes files, not folders)");
        }
        if (!Files.isWritable(parent)) {
            throw new BridgeSetupException(who + ": directory " + parent + " is not writable; the lab cannot make "
                    + path + " there");
        }
        String real;
        try {
            real = parent.toRealPath().resolve(Path.of(path).getFileName()).toString();
        } catch (IOException e) {
            throw new BridgeSetupException(who + ": " + parent + ": " + e.getMessage(), e);
        }
        Long earlier = laidOut.get(real);
        // a file an earlier job of the run makes is opened, not made, by the later ones
        Target t = new Target(job, file, path, real, false, 0, 0, 512, firstClone, cloneCount, earlier == null);
        long size = Math.max(earlier == null ? 0 : earlier, earlier == null || job.rw().writes() ? t.layoutSize() : 0);
        t.checkGeometry(who, size);
        laidOut.put(real, size);
        return t;
    }

    /**
     * An I/O size the job can issue that is not a multiple of {@code unit}, or 0: the smallest and
     * largest of each direction it issues ({@code bsrange} lengths are multiples of the smallest,
     * or the largest) and every {@code bssplit} entry.
     */
    private int unalignedSize(int unit) {
        for (boolean read : new boolean[] {true, false}) {
            if (read ? !job.rw().reads() : !job.rw().writes()) {
                continue;
            }
            BlockSizes sizes = job.blockSizes(read);
            if (sizes.min() % unit != 0) {
                return sizes.min();
            }
            if (sizes.max() % unit != 0) {
                return sizes.max();
            }
            for (BlockSizes.Split s : sizes.split()) {
                if (s.bs() % unit != 0) {
                    return s.bs();
                }
            }
        }
        return 0;
    }

    /**
     * What a file the lab makes is laid out to: {@code filesize}, else the end of this file's
     * region (with {@code nrfiles}, fio's {@code setup_files()} extends each file to its
     * {@code file_offset + io_size}).
     */
    private long layoutSize() {
        return job.filesize() > 0 ? job.filesize() : regionEnd();
    }

    /**
     * Where the last region on this target ends: its last clone's {@code offset} (with
     * {@code offset_increment}, {@link Job#offset(int)}) plus this file's share of the job
     * ({@link Job#fileIoSize}; {@code size} for one file).
     */
    long regionEnd() {
        return job.offset(firstClone + cloneCount - 1) + job.fileIoSize(file);
    }

    /**
     * Size, alignment and header room; see the class comment, steps 5 and 6.
     *
     * @param size the target's size once the write jobs before this one have laid it out
     */
    private void checkGeometry(String who, long size) throws BridgeSetupException {
        long need = regionEnd();
        if (size < need && (block || !job.rw().writes())) {
            throw new BridgeSetupException(who + ": " + path + " is " + sizeBytes + " bytes (" + mib(sizeBytes)
                    + ") but the job needs offset + size = " + job.offset(firstClone + cloneCount - 1) + " + " + job.fileIoSize(file)
                    + (job.nrfiles() > 1 ? " (its share of size over nrfiles=" + job.nrfiles() + ")" : "") + " = " + need
                    + " bytes (" + mib(need) + "); lower size= or offset=, or use a larger "
                    + (block ? "device" : "file"));
        }
        if (job.direct()) {
            int odd = unalignedSize(logicalBlockSize);
            long inc = job.walk().offsetIncrement();
            if (odd != 0 || job.offset() % logicalBlockSize != 0 || inc % logicalBlockSize != 0) {
                int bs = odd != 0 ? odd : job.bs();
                throw new BridgeSetupException(who + ": direct=1 needs every I/O size and offset to be multiples of the"
                        + " logical block size of " + path + " (" + logicalBlockSize + " bytes), but "
                        + (odd != 0 ? "bs=" + odd + (job.mixedSizes() ? " (one of the job's sizes)" : "")
                        : job.offset() % logicalBlockSize != 0 ? "offset=" + job.offset() : "offset_increment=" + inc)
                        + "; use e.g. bs=" + roundUp(bs, logicalBlockSize) + ", or direct=0");
            }
        }
        int header = VerifyHeader.headerSize(job.verify());
        if (header > 0 && job.verifyInterval() <= header) {
            throw new BridgeSetupException(who + ": verify=" + job.verify().fioName() + " needs each verify_interval"
                    + " piece larger than its " + header + "-byte header, but it is " + job.verifyInterval()
                    + " bytes (verify_interval, else the gcd of the smallest and largest write)");
        }
    }

    /** The refusal of a write to a block device the ownership rule does not give the lab. */
    static BridgeSetupException refusal(String who, String path, Stat st, String why) {
        return new BridgeSetupException(who + ": refusing to write to block device " + path + " (" + st.major() + ":"
                + st.minor() + "): " + why + ". Nothing was written: writing would destroy what is on it. Write to a"
                + " device the lab made (./lab kernel up zram:SIZE, loop:SIZE, nullb:SIZE), or, if its contents"
                + " may be destroyed, pass --i-own-this-device");
    }

    /**
     * Opens the target for the run: {@code claim}'s descriptor when it holds this device with
     * this job's {@code direct=}, else one of its own ({@code O_RDWR} only when the job writes;
     * {@code O_DIRECT} with {@code direct=1}), extending a regular file that a write job needs
     * larger first. No I/O is submitted here.
     *
     * @param claim the claim on this block device, or null
     */
    void open(DeviceClaim claim) throws BridgeSetupException {
        if (claim != null && claim.direct == job.direct()) {
            fd = claim.fd();
            claimed = true;
            return;
        }
        String who = "job '" + job.name() + "'";
        boolean writes = job.rw().modifies(); // BLKDISCARD needs a descriptor open for writing
        long need = create ? layoutSize() : regionEnd();
        if (create) {
            try {
                Files.createFile(Path.of(path));   // fails if something made it since the check
            } catch (IOException e) {
                throw new BridgeSetupException(who + ": cannot make " + path + ": " + e, e);
            }
        }
        if (!block) {
            try {
                sizeBytes = Files.size(Path.of(path)); // an earlier job's open may have extended it
            } catch (IOException e) {
                throw new BridgeSetupException(who + ": cannot stat " + path + ": " + e.getMessage(), e);
            }
        }
        if (!block && sizeBytes < need && (writes || create) && !job.walk().fillDevice()) { // fill_device: grows as written
            try (RandomAccessFile f = new RandomAccessFile(path, "rw")) {
                f.setLength(need);          // fio's extend_file(): the job writes this region
            } catch (IOException e) {
                throw new BridgeSetupException(who + ": cannot extend " + path + " to " + need + " bytes: "
                        + e.getMessage(), e);
            }
            sizeBytes = need;
        }
        int flags = (writes ? Libc.O_RDWR : Libc.O_RDONLY) | (job.direct() ? Libc.O_DIRECT : 0);
        int f = open(who, path, flags, job.direct());
        try {
            if (!create && Libc.fstat(f).rdev() != rdev) {
                throw new BridgeSetupException(who + ": " + path + " changed after it was checked; run again");
            }
        } catch (ErrnoException e) {
            closeQuietly(f);
            throw new BridgeSetupException(who + ": " + e.getMessage(), e);
        } catch (BridgeSetupException e) {
            closeQuietly(f);
            throw e;
        }
        fd = f;
    }

    /** The open descriptor; -1 before {@link #open} and after {@link #close}. */
    int fd() {
        return fd;
    }

    long sizeBytes() {
        return sizeBytes;
    }

    /** Closes the target's own descriptor; a claim's stays open until the claim closes. */
    void close() {
        if (fd >= 0 && !claimed) {
            closeQuietly(fd);
        }
        fd = -1;
    }

    private static int open(String who, String path, int flags, boolean direct) throws BridgeSetupException {
        try {
            return Libc.open(path, flags | Libc.O_CLOEXEC);
        } catch (ErrnoException e) {
            throw openFailure(who, e, direct);
        }
    }

    /** A failed open as a setup error that says what to do about it. */
    static BridgeSetupException openFailure(String who, ErrnoException e, boolean direct) {
        String fix = switch (e.errno()) {
            case Errno.EACCES, Errno.EPERM -> "run as root or grant access to it";
            case Errno.EROFS -> "it is read-only: use a writable device, or a read job";
            case Errno.EBUSY -> "something holds it exclusively: see lsblk and /sys/block/*/holders";
            case Errno.EINVAL -> direct ? "its file system does not support O_DIRECT: set direct=0, or use a block device"
                    : "check the name";
            case Errno.ENOENT, Errno.ENXIO, Errno.ENODEV -> "the device is gone: create it again";
            default -> "see open(2)";
        };
        return new BridgeSetupException(who + ": " + e.getMessage() + "; " + fix, e);
    }

    static void closeQuietly(int fd) {
        try {
            Libc.close(fd);
        } catch (ErrnoException e) {
            // a close of a descriptor only read through: nothing to lose
        }
    }

    private static String mib(long bytes) {
        return String.format("%.1f MiB", bytes / 1048576.0);
    }

    private static long roundUp(long v, long unit) {
        return (v + unit - 1) / unit * unit;
    }
}
