package lab.fix;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import lab.fix.dmcssref.DmCssRef;
import lab.fix.partacct.PartAcct;
import lab.fix.primitives.Primitives;
import lab.fix.thinbufiolock.ThinBufioLock;
import lab.fix.zraminitlock.ZramInitLock;
import lab.notebook.Fix;
import lab.notebook.Notebook;
import lab.notebook.Section;

/**
 * The lab's only registry of fixes, in the order the notebook's headline table lists them. A
 * modelled fix is one line naming its unit ({@code lab.fix.<id>}); a fix not yet modelled is its
 * seed's facts (every figure from shared/seeds/README.md and the thread it names), until its
 * unit replaces the line.
 */
public final class Fixes {
    private Fixes() {}

    public static final List<FixUnit> ALL = List.of(
            new Primitives(),
            new DmCssRef(),
            new ZramInitLock(),
            new PartAcct(),
            FixUnit.seedOnly(new Fix("dm-blkcg-clone", "stacked dm devices copy the bio's blkcg association to their clones",
                    "003_e853cddf414699dc.txt", "throughput ratio of blkio.weight 1000 vs 500 (buffered, with the fix)", 1.92,
                    "two containers on LVM-thin, dd bs=1M count=3000, weight 500 vs 1000: with the fix, buffered"
                            + " 29.9 vs 15.6 MB/s (~1.9:1); direct 20.8 vs 20.0 MB/s (not yet fixed)")),
            new ThinBufioLock());

    public static Optional<FixUnit> byId(String id) {
        return ALL.stream().filter(u -> u.fix().id().equals(id)).findFirst();
    }

    /** The ids `./lab pair` accepts: the modelled units. */
    public static List<String> pairable() {
        return ALL.stream().filter(FixUnit::modelled).map(u -> u.fix().id()).toList();
    }

    /** Every modelled unit's pairing, in the table's order. */
    public static List<Pairing> pairings() {
        return ALL.stream().map(FixUnit::pairing).filter(Objects::nonNull).toList();
    }

    /** Writes a run's notebook with every fix of the table and the sections of the modelled ones. */
    public static Notebook.Written notebook(Path runDir) throws IOException {
        List<Fix> facts = ALL.stream().map(FixUnit::fix).toList();
        List<Section> sections = ALL.stream().map(FixUnit::section).filter(Objects::nonNull).toList();
        return Notebook.write(runDir, facts, sections);
    }
}
