package lab.bridge.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What names the holder of a busy device, over a fake /sys/dev/block, mountinfo and /proc/swaps. */
class DeviceUseTest {

    @TempDir
    Path root;

    private DeviceUse use;

    /**
     * sda (8:0) with partition sda1 (8:1) mounted; vdb (254:16) mounted by devno; loop0 (7:0)
     * held by dm-0; loop1 (7:1) a btrfs mount whose mountinfo devno is anonymous (0:33);
     * zram1 (252:1) as swap; zram2 (252:2) free.
     */
    @BeforeEach
    void tree() throws IOException {
        Path devices = root.resolve("devices/virtual/block");
        Path byNo = Files.createDirectories(root.resolve("dev/block"));
        Path sda = disk(devices, byNo, "sda", "8:0");
        Path sda1 = Files.createDirectories(sda.resolve("sda1"));
        Files.writeString(sda1.resolve("partition"), "1\n");
        Files.writeString(sda1.resolve("dev"), "8:1\n");
        Files.createSymbolicLink(byNo.resolve("8:1"), sda1);
        disk(devices, byNo, "vdb", "254:16");
        Path loop = disk(devices, byNo, "loop0", "7:0");
        Files.createDirectories(loop.resolve("holders/dm-0"));
        disk(devices, byNo, "loop1", "7:1");
        disk(devices, byNo, "zram1", "252:1");
        disk(devices, byNo, "zram2", "252:2");
        Files.writeString(root.resolve("mountinfo"), """
                27 1 254:16 / /data rw,relatime - ext4 /dev/vdb rw
                28 1 8:1 / /boot rw,relatime - ext4 /dev/sda1 rw
                29 1 0:33 / /mnt/b rw,relatime shared:5 - btrfs /dev/loop1 rw,space_cache=v2
                30 27 0:25 / /proc rw - proc proc rw
                """);
        Files.writeString(root.resolve("swaps"),
                "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/zram1  partition\t1024\t0\t100\n");
        Map<String, String> nodes = Map.of("/dev/vdb", "254:16", "/dev/sda1", "8:1", "/dev/loop1", "7:1",
                "/dev/zram1", "252:1");
        use = new DeviceUse(byNo, root.resolve("mountinfo"), root.resolve("swaps"), nodes::get);
    }

    private static Path disk(Path devices, Path byNo, String name, String devno) throws IOException {
        Path d = Files.createDirectories(devices.resolve(name));
        Files.createDirectories(d.resolve("holders"));
        Files.writeString(d.resolve("dev"), devno + "\n");
        Files.createSymbolicLink(byNo.resolve(devno), d);
        return d;
    }

    @Test
    void freeDeviceHasNoUse() {
        assertEquals(List.of(), use.uses(252, 2));
    }

    @Test
    void mountedDeviceNamesItsMountPointAndType() {
        assertEquals(List.of("it is mounted at /data (ext4)"), use.uses(254, 16));
    }

    /** btrfs reports an anonymous 0:NN in mountinfo's field 3; the mount source still names the device. */
    @Test
    void btrfsMountIsFoundByItsSource() {
        assertEquals(List.of("it is mounted at /mnt/b (btrfs)"), use.uses(7, 1));
    }

    @Test
    void mountedPartitionIsNamedForTheWholeDisk() {
        assertEquals(List.of("its partition sda1 is mounted at /boot (ext4)"), use.uses(8, 0));
    }

    @Test
    void heldDeviceNamesTheHolder() {
        List<String> why = use.uses(7, 0);
        assertEquals(1, why.size());
        assertTrue(why.getFirst().startsWith("it is held by dm-0"), why.toString());
    }

    /**
     * loop1 beside a mounted loop10 (snaps' loops on Ubuntu hosts): the match is by major:minor, so
     * loop1's neighbour with the longer name is not loop1's use, nor loop1 loop10's.
     */
    @Test
    void aMountedLoop10IsNotLoop1s() throws IOException {
        Path byNo = root.resolve("dev/block");
        disk(root.resolve("devices/virtual/block"), byNo, "loop10", "7:10");
        Path info = root.resolve("mountinfo10");
        Files.writeString(info, "31 1 7:10 / /snap/core/1 ro,nodev - squashfs /dev/loop10 ro\n");
        DeviceUse ten = new DeviceUse(byNo, info, root.resolve("swaps"), Map.of("/dev/loop10", "7:10")::get);
        assertEquals(List.of(), ten.uses(7, 1));
        assertEquals(List.of("it is mounted at /snap/core/1 (squashfs)"), ten.uses(7, 10));
    }

    @Test
    void swapIsNamed() {
        assertEquals(List.of("it is in use as swap (/proc/swaps)"), use.uses(252, 1));
    }
}
