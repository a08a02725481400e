package lab.engine.dm;

import java.util.ArrayList;
import java.util.List;
import lab.engine.blkcg.CssForward;
import lab.engine.block.BlockDevice;
import lab.engine.inject.Injection;
import lab.engine.sync.Rcu;

/**
 * The seed's stack: {@code depth} nested dm-linear devices over {@code disk}, {@code linear1}
 * mapping the whole disk and each {@code linearN} the whole of {@code linear(N-1)}, as
 * {@code dmsetup create linearN --table "0 SIZE linear linear(N-1) 0"} does. Depth 0 is the disk.
 *
 * @param layers the mapped devices, bottom first
 * @param top    what I/O goes to: the last layer, or the disk itself at depth 0
 */
public record LinearStack(List<MappedDevice> layers, BlockDevice top) {

    /** Builds the stack; every layer shares {@code rcu}, {@code css} and {@code inject}. */
    public static LinearStack over(BlockDevice disk, int depth, int nrCpus, Rcu rcu, CssForward css, Injection inject) {
        if (depth < 0) {
            throw new IllegalArgumentException("dm-linear depth " + depth + " < 0");
        }
        List<MappedDevice> layers = new ArrayList<>();
        BlockDevice below = disk;
        for (int i = 1; i <= depth; i++) {
            MappedDevice md = new MappedDevice("linear" + i, DmTable.linear(below, nrCpus), nrCpus, rcu, css, inject);
            layers.add(md);
            below = md;
        }
        return new LinearStack(List.copyOf(layers), below);
    }

    /** Frees every layer's clone bioset; nothing may be in flight. */
    public void close() {
        layers.forEach(MappedDevice::close);
    }
}
