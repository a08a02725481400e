package lab.bridge.run;

import java.util.List;
import java.util.Optional;
import lab.bridge.ffi.Errno;
import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import lab.bridge.ffi.Stat;

/**
 * One block device a run writes, held open with {@code O_EXCL} from before its first write until
 * the run ends. An exclusive open is the kernel's own "in use" test ({@code bd_prepare_to_claim}),
 * the one every mount, {@code swapon}, dm table and md array also passes: while the run holds it,
 * nothing can mount, swap on or stack onto the device, in this mount namespace or any other; and
 * a device already so used answers {@code EBUSY}, which becomes a refusal that
 * {@code --i-own-this-device} does not lift ({@link DeviceUse} names the holder where it can).
 *
 * <p>Taken after every job's {@link Target#check}, before any target is opened for the run. The
 * ownership rule is asked again once the device is held, so that a device changed between the
 * check and the claim (a loop detached and re-attached to someone's file) is still refused.
 *
 * <p>One claim per device (by {@code st_rdev}), whatever the number of jobs on it: jobs whose
 * {@code direct=} matches the claim's share its descriptor; a job with the other {@code direct=}
 * opens a descriptor of its own, non-exclusive, while the claim holds the device. Owned by the
 * thread that runs {@link BridgeRun}; clones only read {@link #fd()}.
 */
final class DeviceClaim implements AutoCloseable {

    /** The node as the first job that writes the device named it. */
    final String path;
    final long rdev;
    /** Whether the descriptor was opened with {@code O_DIRECT}. */
    final boolean direct;
    private int fd;

    private DeviceClaim(String path, long rdev, boolean direct, int fd) {
        this.path = path;
        this.rdev = rdev;
        this.direct = direct;
        this.fd = fd;
    }

    /**
     * Opens {@code t}'s device {@code O_RDWR | O_EXCL}, then checks that it is still the device
     * checked and, unless {@code iOwn}, still the lab's.
     */
    static DeviceClaim take(Target t, boolean iOwn, DeviceOwnership ownership) throws BridgeSetupException {
        String who = "job '" + t.job.name() + "' (" + t.job.source() + ":" + t.job.line() + ")";
        int flags = Libc.O_RDWR | Libc.O_EXCL | Libc.O_CLOEXEC | (t.job.direct() ? Libc.O_DIRECT : 0);
        int fd;
        try {
            fd = Libc.open(t.path, flags);
        } catch (ErrnoException e) {
            if (e.errno() == Errno.EBUSY) {
                Stat st = new Stat(0, t.rdev, 0);
                throw busy(who, t.path, st, DeviceUse.live().uses(st.major(), st.minor()));
            }
            throw Target.openFailure(who, e, t.job.direct());
        }
        try {
            Stat st = Libc.fstat(fd);
            if (!st.isBlockDevice() || st.rdev() != t.rdev) {
                throw new BridgeSetupException(who + ": " + t.path + " changed after it was checked; run again");
            }
            if (!iOwn) {
                Optional<String> no = ownership.refusal(t.path, st.major(), st.minor());
                if (no.isPresent()) {
                    throw Target.refusal(who, t.path, st, no.get());
                }
            }
            return new DeviceClaim(t.path, t.rdev, t.job.direct(), fd);
        } catch (ErrnoException e) {
            Target.closeQuietly(fd);
            throw new BridgeSetupException(who + ": " + e.getMessage(), e);
        } catch (BridgeSetupException | RuntimeException e) {
            Target.closeQuietly(fd);
            throw e;
        }
    }

    /** The refusal for a device something else holds exclusively. */
    static BridgeSetupException busy(String who, String path, Stat st, List<String> uses) {
        String what = uses.isEmpty()
                ? "nothing this mount namespace shows says what: a mount in another namespace, or a program"
                        + " that opened it with O_EXCL (see lsblk and fuser -v " + path + ")"
                : String.join("; ", uses);
        return new BridgeSetupException(who + ": refusing to write to block device " + path + " (" + st.major() + ":"
                + st.minor() + "): something else holds it exclusively (open with O_EXCL: EBUSY): " + what
                + ". Nothing was written; --i-own-this-device does not lift this: unmount it or stop its holder first");
    }

    /** The held descriptor; -1 after {@link #close}. */
    int fd() {
        return fd;
    }

    /** Lets the device go: closes the descriptor, after every job using it has. */
    @Override
    public void close() {
        if (fd >= 0) {
            Target.closeQuietly(fd);
            fd = -1;
        }
    }
}
