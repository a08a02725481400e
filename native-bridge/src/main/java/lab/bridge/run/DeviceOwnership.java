package lab.bridge.run;

import java.nio.file.Path;
import java.util.Optional;

/**
 * May the lab write to this block device? The rule is {@link #registry()}: only to devices
 * kernel-scripts made and recorded in the lab's registry ({@link RegistryOwnership}); a run given
 * {@code --i-own-this-device} does not ask. Whether the device is in use is not this question:
 * every written device is held with {@code O_EXCL} ({@link DeviceClaim}), override or not.
 *
 * <p>Asked before the target is opened at all, so that a refused device is never opened for
 * writing, and again once it is held. Reads never ask.
 */
@FunctionalInterface
public interface DeviceOwnership {

    /**
     * Why the lab must not write to the block device {@code major:minor} named {@code path}, or
     * empty when it may. The reason is a sentence fragment, e.g.
     * {@code "the lab did not make it (no 'loop /dev/loop3' line in /root/lab/.lab/kernel/registry)"}.
     */
    Optional<String> refusal(String path, int major, int minor);

    /**
     * The lab's registry rule over the live system. The registry is, in this order: the system
     * property {@code lab.registry}, the environment's {@code LAB_REGISTRY}, or
     * {@code kernel/registry} under the property {@code lab.state} (which {@code ./lab} passes)
     * or the environment's {@code LAB_STATE}; with none of them, no device is the lab's.
     */
    static DeviceOwnership registry() {
        return new RegistryOwnership(registryPath(), Path.of("/sys/dev/block"), Path.of("/sys/kernel/config/nullb"));
    }

    /** The registry {@link #registry()} reads, or null. */
    static Path registryPath() {
        String reg = System.getProperty("lab.registry", System.getenv("LAB_REGISTRY"));
        if (reg != null && !reg.isBlank()) {
            return Path.of(reg).toAbsolutePath();
        }
        String state = System.getProperty("lab.state", System.getenv("LAB_STATE"));
        return state == null || state.isBlank() ? null : Path.of(state, "kernel", "registry").toAbsolutePath();
    }
}
