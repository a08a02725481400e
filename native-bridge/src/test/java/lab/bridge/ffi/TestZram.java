package lab.bridge.ffi;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A zram device of a test's own, as root: hot-added, sized, and on {@link #close()} reset and
 * hot-removed; zram0 and every other device are never touched. Skips where there is no root,
 * no zram-control or no device node.
 */
public final class TestZram implements AutoCloseable {
    private static final Path CONTROL = Path.of("/sys/class/zram-control");

    /** The index hot_add gave. */
    public final int index;
    /** {@code /dev/zramN}. */
    public final String dev;
    /** {@code /sys/block/zramN}. */
    public final Path sys;

    private TestZram(int index) {
        this.index = index;
        this.dev = "/dev/zram" + index;
        this.sys = Path.of("/sys/block/zram" + index);
    }

    /** Hot-adds a device of {@code size} ("64M"); skips the test where it cannot. */
    public static TestZram add(String size) throws IOException, InterruptedException {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        assumeTrue(Files.isReadable(CONTROL.resolve("hot_add")), "no zram-control (zram module not loaded)");
        TestZram z = new TestZram(Integer.parseInt(Files.readString(CONTROL.resolve("hot_add")).trim()));
        try {
            Files.writeString(z.sys.resolve("disksize"), size);
            for (int i = 0; i < 100 && !Files.exists(Path.of(z.dev)); i++) {
                Thread.sleep(10);
            }
            assumeTrue(Files.exists(Path.of(z.dev)), "no device node " + z.dev + " (no devtmpfs?)");
            return z;
        } catch (IOException | InterruptedException | RuntimeException e) {
            z.close();
            throw e;
        }
    }

    /** {@code st_rdev} of the node. */
    public Stat stat() throws IOException {
        return new Stat(0, ((Number) Files.getAttribute(Path.of(dev), "unix:rdev")).longValue(), 0);
    }

    /**
     * Resets and hot-removes the device. reset answers EBUSY while anything still holds it (even
     * briefly after the last close): retried for up to 5 s.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        for (int i = 0; Files.exists(sys); i++) {
            try {
                Files.writeString(sys.resolve("reset"), "1");
                break;
            } catch (IOException e) {
                if (i == 100) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
        Files.writeString(CONTROL.resolve("hot_remove"), Integer.toString(index));
    }
}
