package lab.fix;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import lab.fix.dmblkcgclone.DmBlkcgClone;
import lab.fix.dmcssref.DmCssRef;
import lab.fix.partacct.PartAcct;
import lab.fix.primitives.Primitives;
import lab.fix.thinbufiolock.ThinBufioLock;
import lab.fix.zraminitlock.ZramInitLock;
import lab.notebook.Fix;
import lab.notebook.Notebook;
import lab.notebook.Section;
import lab.results.RunDir;

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
            new DmBlkcgClone(),
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

    /**
     * The headline of {@code fixId} in the run folder {@code runDir} as it stands (a run still in
     * progress included): its section rendered from raw/ alone, nothing written; empty where the
     * fix has no section or its raw/ gives no headline yet.
     */
    @SuppressWarnings("unchecked")
    public static Optional<Map<String, Object>> headline(Path runDir, String fixId) throws IOException {
        Optional<Section> s = byId(fixId).map(FixUnit::section);
        if (s.isEmpty()) {
            return Optional.empty();
        }
        return s.get().render(RunDir.open(runDir))
                .map(o -> o.summary().get("headline") instanceof Map<?, ?> h ? (Map<String, Object>) h : null);
    }

    /** Every fix's "at scale" facts, in table order: the fixes with a contended line to carry to more threads. */
    public static List<lab.analysis.scale.FixScale> scales() {
        return ALL.stream().map(FixUnit::scale).filter(Objects::nonNull).toList();
    }

    /** Writes a run's notebook with every fix of the table and the sections of the modelled ones. */
    public static Notebook.Written notebook(Path runDir) throws IOException {
        if (lab.notebook.ScalePage.isProfileRun(runDir)) {
            return lab.notebook.ScalePage.write(runDir, ProfileSweep.PROBES, scales());
        }
        List<Fix> facts = ALL.stream().map(FixUnit::fix).toList();
        List<Section> sections = ALL.stream().map(FixUnit::section).filter(Objects::nonNull).toList();
        return Notebook.write(runDir, facts, sections);
    }
}
