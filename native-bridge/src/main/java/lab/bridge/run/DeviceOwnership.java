package lab.bridge.run;

import java.nio.file.Path;
import java.util.Optional;

/**
 * May the lab write to this block device? The hook for kernel-scripts' ownership registry (the
 * devices the lab created itself: zram, loop, dm stacks, null_blk, brd). Until that registry
 * exists, {@link #sysfs()} refuses any device that is visibly in use; a run given
 * {@code --i-own-this-device} skips the check altogether.
 *
 * <p>Asked before the target is opened at all, so that a refused device is never opened for
 * writing. Reads never ask.
 */
@FunctionalInterface
public interface DeviceOwnership {

    /**
     * Why the lab must not write to the block device {@code major:minor} named {@code path}, or
     * empty when it may. The reason is a sentence fragment, e.g.
     * {@code "it is mounted at / (ext4)"}.
     */
    Optional<String> refusal(String path, int major, int minor);

    /** The interim rule over the live system: mounted, swap, partitioned, held, or a partition. */
    static DeviceOwnership sysfs() {
        return new SysfsOwnership(Path.of("/sys/dev/block"), Path.of("/proc/self/mountinfo"), Path.of("/proc/swaps"));
    }
}
