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

/**
 * The registry rule over a fake sysfs, configfs and registry, kind by kind, as
 * {@code _lab_require_owned} in kernel-scripts/common/rc.sh decides (test 021 checks the two agree
 * on real devices).
 */
class RegistryOwnershipTest {

    @TempDir
    Path root;

    private Path byNo;
    private Path devices;
    private Path kdir;
    private Path registry;
    private Path configfs;
    private RegistryOwnership rule;

    @BeforeEach
    void tree() throws IOException {
        devices = root.resolve("sys/devices/virtual/block");
        byNo = Files.createDirectories(root.resolve("sys/dev/block"));
        configfs = Files.createDirectories(root.resolve("config/nullb"));
        kdir = Files.createDirectories(root.resolve("state/kernel"));
        registry = kdir.resolve("registry");
        rule = new RegistryOwnership(registry, byNo, configfs);
    }

    private Path disk(String name, String devno) throws IOException {
        Path d = Files.createDirectories(devices.resolve(name));
        Files.createSymbolicLink(byNo.resolve(devno), d);
        return d;
    }

    private void registry(String... lines) throws IOException {
        Files.writeString(registry, String.join("\n", lines) + "\n");
    }

    private Optional<String> ask(String devno) {
        String[] mm = devno.split(":");
        return rule.refusal("/dev/x", Integer.parseInt(mm[0]), Integer.parseInt(mm[1]));
    }

    private void assertRefused(String devno, String part) {
        String why = ask(devno).orElseThrow(() -> new AssertionError(devno + " was not refused"));
        assertTrue(why.contains(part), why);
    }

    @Test
    void zramTheLabHotAddedIsItsOthersAreNot() throws IOException {
        disk("zram3", "252:3");
        disk("zram0", "252:0");
        registry("zram\tzram3\t-");
        assertEquals(Optional.empty(), ask("252:3"));
        assertRefused("252:0", "no 'zram zram0' line in " + registry);
    }

    @Test
    void loopNeedsItsLineAndTheSameBackingFileInTheLabsFolder() throws IOException {
        Path lab = Files.createDirectories(kdir.resolve("loop")).resolve("lab-abc.img");
        Path l5 = disk("loop5", "7:5");
        Files.createDirectories(l5.resolve("loop"));
        Files.writeString(l5.resolve("loop/backing_file"), lab + "\n");
        registry("loop\t/dev/loop5\t" + lab);
        assertEquals(Optional.empty(), ask("7:5"));

        Files.writeString(l5.resolve("loop/backing_file"), "/home/someone/disk.img\n");
        assertRefused("7:5", "its backing file is /home/someone/disk.img, not the lab's " + lab);

        // a forged line naming the foreign file: still not in the lab's folder
        registry("loop\t/dev/loop5\t/home/someone/disk.img");
        assertRefused("7:5", "outside the lab's " + kdir.resolve("loop"));

        disk("loop6", "7:6");
        assertRefused("7:6", "no 'loop /dev/loop6' line");
    }

    @Test
    void nullBlkNeedsALabConfigfsItemThatStillBacksIt() throws IOException {
        Path item = Files.createDirectories(configfs.resolve("labnbQx3"));
        Files.writeString(item.resolve("index"), "1\n");
        disk("nullb1", "250:1");
        disk("labnbQx3", "250:2");
        registry("nullb\tnullb1\t" + item, "nullb\tlabnbQx3\t" + item);
        assertEquals(Optional.empty(), ask("250:1"));
        assertEquals(Optional.empty(), ask("250:2"));
        Files.writeString(item.resolve("index"), "4\n");
        assertRefused("250:1", "no longer backs nullb1");
        registry("nullb\tnullb1\t" + configfs.resolve("someones"));
        assertRefused("250:1", "is not a lab one");
    }

    @Test
    void dmNeedsItsNameListedAndALabUuid() throws IOException {
        Path dm = disk("dm-2", "253:2");
        Files.createDirectories(dm.resolve("dm"));
        Files.writeString(dm.resolve("dm/name"), "lab-lin1\n");
        Files.writeString(dm.resolve("dm/uuid"), "LAB-lin1\n");
        registry("dm\tlab-lin1\t-");
        assertEquals(Optional.empty(), ask("253:2"));
        Files.writeString(dm.resolve("dm/uuid"), "LVM-abcdef\n");
        assertRefused("253:2", "its dm uuid LVM-abcdef is not a lab one");
        Files.writeString(dm.resolve("dm/name"), "vg0-root\n");
        assertRefused("253:2", "no 'dm vg0-root' line");
    }

    @Test
    void partitionOfALabDiskIsTheLabsAndOfAnotherIsNot() throws IOException {
        Path z = disk("zram3", "252:3");
        Path p = Files.createDirectories(z.resolve("zram3p1"));
        Files.writeString(p.resolve("partition"), "1\n");
        Files.createSymbolicLink(byNo.resolve("259:0"), p);
        registry("zram\tzram3\t-");
        assertEquals(Optional.empty(), ask("259:0"));
        registry("zram\tzram4\t-");
        assertRefused("259:0", "it is a partition of zram3, and the lab did not make it");
    }

    @Test
    void otherKindsUnknownDevicesAndAMissingRegistryAreRefused() throws IOException {
        disk("sda", "8:0");
        registry("zram\tzram3\t-");
        assertRefused("8:0", "the lab makes only zram, loop, null_blk and dm devices");
        assertRefused("99:9", "sysfs does not know it");
        Files.delete(registry);
        disk("zram3", "252:3");
        assertRefused("252:3", "the lab has made no devices here");
        RegistryOwnership none = new RegistryOwnership(null, byNo, configfs);
        assertTrue(none.refusal("/dev/zram3", 252, 3).orElseThrow().startsWith("no lab registry is known"));
    }
}
