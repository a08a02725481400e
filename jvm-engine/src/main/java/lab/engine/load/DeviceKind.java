package lab.engine.load;

import java.util.Locale;
import lab.engine.block.BlockDevice;
import lab.engine.block.NullBlk;
import lab.engine.block.RamDisk;
import lab.engine.work.CpuWork;

/**
 * The engine devices a job file can run against, as the command line names them
 * ({@code --device null|ram}).
 */
public enum DeviceKind {
    /** {@link NullBlk} in {@code irqmode=0}, 512-byte blocks: {@code nullb0}. */
    NULL("null", "null_blk irqmode=0: no data moved, endIo runs inside submitBio on the submitter's thread",
            "null_blk takes discards only when memory backed, null_config_discard()"),
    /** {@link RamDisk} (brd): {@code ram0}. */
    RAM("ram", "brd: sparse 4 KiB pages allocated on first write, memcpy per segment, endIo inside submitBio",
            "brd sets no discard limit");

    private final String cliName;
    private final String modelNote;
    private final String discardNote;

    DeviceKind(String cliName, String modelNote, String discardNote) {
        this.cliName = cliName;
        this.modelNote = modelNote;
        this.discardNote = discardNote;
    }

    /** Why the device does no discards, in the kernel's words ({@link BlockDevice#maxDiscardSectors} 0). */
    String discardNote() {
        return discardNote;
    }

    /** The name on the command line and in a report's {@code lab.device}. */
    public String cliName() {
        return cliName;
    }

    /** One line on what the model of this device does; goes into a report's {@code lab.notes}. */
    String modelNote() {
        return modelNote;
    }

    /** The kind named {@code name} ({@code null} or {@code ram}, any case). */
    public static DeviceKind parse(String name) {
        for (DeviceKind k : values()) {
            if (k.cliName.equals(name.toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown engine device '" + name + "' (null or ram)");
    }

    /** A new device of this kind holding {@code capacityBytes}, spending {@code work} per bio in its submit ({@code base_ns}). */
    BlockDevice create(long capacityBytes, CpuWork work) {
        return switch (this) {
            case NULL -> NullBlk.immediate("nullb0", capacityBytes, 512, work);
            case RAM -> new RamDisk("ram0", capacityBytes, work);
        };
    }
}
