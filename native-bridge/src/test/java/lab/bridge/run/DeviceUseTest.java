package lab.bridge.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The interim ownership rule over a fake /sys/dev/block, mountinfo and /proc/swaps. */
class SysfsOwnershipTest {

    @TempDir
    Path root;

    private SysfsOwnership rule;

    /**
     * sda (8:0) with partition sda1 (8:1); vdb (254:16) mounted; loop0 (7:0) held by dm-0;
     * zram1 (252:1) as swap; zram2 (252:2) free.
     */
    @BeforeEach
    void tree() throws IOException {
        Path devices = root.resolve("devices/virtual/block");
        Path byNo = Files.createDirectories(root.resolve("dev/block"));
        Path sda = disk(devices, byNo, "sda", "8:0");
        Files.createDirectories(sda.resolve("sda1"));
        Files.writeString(sda.resolve("sda1/partition"), "1\n");
        Files.createSymbolicLink(byNo.resolve("8:1"), sda.resolve("sda1"));
        disk(devices, byNo, "vdb", "254:16");
        Path loop = disk(devices, byNo, "loop0", "7:0");
        Files.createDirectories(loop.resolve("holders/dm-0"));
        disk(devices, byNo, "zram1", "252:1");
        disk(devices, byNo, "zram2", "252:2");
        Files.writeString(root.resolve("mountinfo"),
                "27 1 254:16 / /data rw,relatime - ext4 /dev/vdb rw\n30 27 0:25 / /proc rw - proc proc rw\n");
        Files.writeString(root.resolve("swaps"),
                "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/zram1  partition\t1024\t0\t100\n");
        rule = new SysfsOwnership(byNo, root.resolve("mountinfo"), root.resolve("swaps"));
    }

    private static Path disk(Path devices, Path byNo, String name, String devno) throws IOException {
        Path d = Files.createDirectories(devices.resolve(name));
        Files.createDirectories(d.resolve("holders"));
        Files.createSymbolicLink(byNo.resolve(devno), d);
        return d;
    }

    @Test
    void freeDeviceIsTheLabs() {
        assertEquals(Optional.empty(), rule.refusal("/dev/zram2", 252, 2));
    }

    @Test
    void mountedDeviceIsRefusedWithItsMountPoint() {
        assertEquals(Optional.of("it is mounted at /data"), rule.refusal("/dev/vdb", 254, 16));
    }

    @Test
    void partitionedDiskAndPartitionAreRefused() {
        assertEquals(Optional.of("it has partitions (sda1)"), rule.refusal("/dev/sda", 8, 0));
        assertEquals(Optional.of("it is a partition of sda"), rule.refusal("/dev/sda1", 8, 1));
    }

    @Test
    void heldDeviceIsRefusedNamingTheHolder() {
        String why = rule.refusal("/dev/loop0", 7, 0).orElseThrow();
        assertTrue(why.startsWith("it is held by dm-0"), why);
    }

    @Test
    void swapIsRefused() {
        assertEquals(Optional.of("it is in use as swap (/proc/swaps)"), rule.refusal("/dev/zram1", 252, 1));
    }

    @Test
    void unknownDeviceIsRefused() {
        assertTrue(rule.refusal("/dev/what", 99, 9).orElseThrow().startsWith("sysfs does not know it"));
    }
}
