package lab.engine.thin;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import lab.engine.block.BlockDevice;
import lab.engine.bufio.Buffer;
import lab.engine.bufio.BufioClient;
import lab.engine.bufio.BufioLocking;
import lab.engine.count.SharedLines;
import lab.engine.sync.Rwsem;

/*
 * A thin pool's metadata, struct dm_pool_metadata (drivers/md/dm-thin-metadata.c):
 * the mapping of every thin device's virtual blocks to data blocks, as
 * persistent-data's two-level btree on the metadata device, read and written
 * only through a BufioClient (dm-block-manager's), under root_lock.
 *
 *   level 0, the device tree: thin device id -> root of its mapping tree
 *   level 1, a mapping tree:  virtual block -> data block << 24 | time
 *
 * findBlock (dm_thin_find_block): down_read(root_lock), dm_btree_lookup over
 * both levels with one ro_spine (RoSpine), up_read. Non-blocking (the map
 * path, can_issue_io 0) the node reads are the client's walk and a miss ends
 * the lookup with WOULDBLOCK; blocking (the pool worker's) they are
 * dm_bufio_read. A node: lower_bound by bisection over its keys, then the
 * child's block (internal) or, in a leaf, the value if the key matches.
 *
 * provision: down_write(root_lock), allocate a data block from the data
 * space map, insert the mapping (dm_thin_insert_block), up_write. Inserts
 * split on the way down, as btree_insert_raw: a full root splits beneath
 * itself (btree_split_beneath: its entries move to two new children and the
 * root, at the same block, points at them), a full child into a new right
 * sibling (btree_split_sibling); a key below the first of an internal node
 * lowers that node's first key.
 *
 * Where the model simplifies: nodes change in place (no shadowing: no
 * transaction, no copy-on-write, no crash consistency; commit only writes
 * the dirty buffers); both space maps are in memory (the kernel's are btrees
 * of bitmaps on the metadata device); no superblock (the roots are fields);
 * no removal, no snapshots (so no shared mapping), one time value 0; no
 * rebalancing with neighbours before a split (6.1's rebalance_or_split).
 */

/** A thin pool's metadata: two-level btree through a bufio client, under {@code root_lock}. */
public final class ThinMetadata implements AutoCloseable {
    /** {@code THIN_METADATA_BLOCK_SIZE}. */
    public static final int BLOCK_SIZE = 4096;
    /** {@link #findBlock}: no mapping. */
    public static final long NODATA = -1;
    /** {@link #findBlock}: a node is not cached (non-blocking only). */
    public static final long WOULDBLOCK = -2;
    static final String SITE_ROOT_LOCK = "thin.root_lock";

    private final BufioClient bm;
    /** {@code pmd->root_lock}. */
    private final Rwsem rootLock;
    /** The device tree's root ({@code pmd->root}); under {@link #rootLock}. */
    private final long root;
    private final int maxEntries;
    private final long nrMetadataBlocks;
    /** The metadata space map: blocks in use (block 0, the superblock's, always); under {@link #rootLock} write. */
    private final BitSet metadataUsed = new BitSet();
    /** The data space map: a reference count per data block; under {@link #rootLock} write. */
    private final byte[] dataRefs;
    private int dataCursor;
    private long dataUsed;
    private final RoSpine[] spines;

    /**
     * Formats the metadata device {@code metadata} (an empty device tree) for {@code dataBlocks}
     * data blocks, cached by a client of {@code cacheBlocks} buffers locked as {@code locking}.
     */
    public ThinMetadata(BlockDevice metadata, long dataBlocks, int cacheBlocks, BufioLocking locking, int nrCpus, SharedLines lines) {
        this(metadata, dataBlocks, cacheBlocks, locking, 0, nrCpus, lines);
    }

    /** As above, the cache with the lab switch's {@code clientLockCount} client-lock acquisitions per hit and release (0: none). */
    public ThinMetadata(BlockDevice metadata, long dataBlocks, int cacheBlocks, BufioLocking locking, int clientLockCount, int nrCpus,
            SharedLines lines) {
        Objects.requireNonNull(metadata, "metadata");
        this.nrMetadataBlocks = metadata.capacitySectors() / (BLOCK_SIZE >>> 9);
        if (nrMetadataBlocks < 8) {
            throw new IllegalArgumentException("thin: metadata device " + metadata.name() + " has " + nrMetadataBlocks + " blocks (< 8)");
        }
        if (dataBlocks < 1 || dataBlocks > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("thin: data blocks " + dataBlocks);
        }
        this.bm = new BufioClient(metadata, BLOCK_SIZE, cacheBlocks, locking, clientLockCount, nrCpus, new BufioClient.Validator() {
            @Override
            public void prepareForWrite(long block, MemorySegment data) {
                BtreeNode.prepareForWrite(block, data);
            }

            @Override
            public boolean check(long block, MemorySegment data) {
                return BtreeNode.check(block, data);
            }
        }, lines);
        this.rootLock = new Rwsem(lines, SITE_ROOT_LOCK);
        this.maxEntries = BtreeNode.maxEntries(BLOCK_SIZE);
        this.dataRefs = new byte[(int) dataBlocks];
        this.spines = new RoSpine[nrCpus];
        for (int i = 0; i < nrCpus; i++) {
            spines[i] = new RoSpine(bm, i);
        }
        metadataUsed.set(0);
        this.root = newNode(BtreeNode.LEAF_NODE, 0);
        commit(0);
    }

    /** The bufio client (its stats, its locking). */
    public BufioClient bufio() {
        return bm;
    }

    /** {@code dm_pool_create_thin}: an empty mapping tree for {@code devId}. */
    public void createThin(long devId, int cpu) {
        rootLock.downWrite();
        try {
            if (lookup(root, devId, cpu) != NODATA) {
                throw new IllegalArgumentException("thin: device " + devId + " exists");
            }
            insert(root, devId, newNode(BtreeNode.LEAF_NODE, cpu), cpu);
        } finally {
            rootLock.upWrite();
        }
    }

    /**
     * {@code dm_thin_find_block}: {@code vblock}'s data block and time ({@code block << 24 | time})
     * in device {@code devId}, {@link #NODATA}, or (with {@code canBlock} false, when a node is not
     * cached) {@link #WOULDBLOCK}.
     */
    public long findBlock(long devId, long vblock, boolean canBlock, int cpu) {
        rootLock.downRead();
        try {
            if (canBlock) {
                return lookup2(devId, vblock, spines[cpu], true);
            }
            bm.walkBegin();
            try {
                return lookup2(devId, vblock, spines[cpu], false);
            } finally {
                bm.walkEnd();
            }
        } finally {
            rootLock.upRead();
        }
    }

    /**
     * Provisions {@code vblock} of {@code devId} if it has no mapping: a data block from the space
     * map, and the mapping inserted ({@code alloc_data_block} + {@code dm_thin_insert_block}).
     * Returns the data block (the existing one if mapped already), or -1 when the pool is full.
     */
    public long provision(long devId, long vblock, int cpu) {
        rootLock.downWrite();
        try {
            long mroot = lookup(root, devId, cpu);
            if (mroot == NODATA) {
                throw new IllegalArgumentException("thin: no device " + devId);
            }
            long v = lookup(mroot, vblock, cpu);
            if (v != NODATA) {
                return v >>> 24;
            }
            long d = allocData();
            if (d < 0) {
                return -1;
            }
            insert(mroot, vblock, d << 24, cpu);
            return d;
        } finally {
            rootLock.upWrite();
        }
    }

    /** {@code dm_pool_commit_metadata}: writes every dirty node; false if a write failed. */
    public boolean commit(int cpu) {
        rootLock.downWrite();
        try {
            return bm.writeDirtyBuffers(cpu);
        } finally {
            rootLock.upWrite();
        }
    }

    /** Data blocks in use. */
    public long dataUsed() {
        rootLock.downRead();
        try {
            return dataUsed;
        } finally {
            rootLock.upRead();
        }
    }

    /** Both levels of {@code dm_btree_lookup} with one spine. */
    private long lookup2(long devId, long vblock, RoSpine s, boolean blocking) {
        s.init(blocking);
        try {
            long mroot = level(root, devId, s);
            return mroot < 0 ? mroot : level(mroot, vblock, s);
        } finally {
            s.exit();
        }
    }

    /** {@code btree_lookup_raw} + the key check: one level from {@code block}. */
    private static long level(long block, long key, RoSpine s) {
        for (;;) {
            if (!s.step(block)) {
                return WOULDBLOCK;
            }
            MemorySegment n = s.node();
            int i = BtreeNode.lowerBound(n, key);
            if (i < 0 || i >= BtreeNode.nrEntries(n)) {
                return NODATA;
            }
            if (BtreeNode.isLeaf(n)) {
                return BtreeNode.key(n, i) == key ? BtreeNode.value(n, i) : NODATA;
            }
            block = BtreeNode.value(n, i);
        }
    }

    /** A blocking one-level lookup (under root_lock write): the value or {@link #NODATA}. */
    private long lookup(long tree, long key, int cpu) {
        RoSpine s = spines[cpu];
        s.init(true);
        try {
            return level(tree, key, s);
        } finally {
            s.exit();
        }
    }

    /** {@code btree_insert_raw} + {@code insert_at}: (key, value) into the tree at {@code tree}, splitting full nodes on the way down. */
    private void insert(long tree, long key, long value, int cpu) {
        Buffer parent = null;
        int parentIndex = -1;
        Buffer node = bm.read(tree, cpu);
        try {
            for (;;) {
                MemorySegment n = node.data();
                if (BtreeNode.nrEntries(n) == BtreeNode.max(n)) {
                    if (parent == null) {
                        splitBeneath(node, cpu);
                        continue;
                    }
                    Buffer right = splitSibling(parent, parentIndex, node, cpu);
                    if (Long.compareUnsigned(key, BtreeNode.key(right.data(), 0)) >= 0) {
                        bm.release(node);
                        node = right;
                        parentIndex++;
                    } else {
                        bm.release(right);
                    }
                    n = node.data();
                }
                int i = BtreeNode.lowerBound(n, key);
                if (BtreeNode.isLeaf(n)) {
                    if (i >= 0 && BtreeNode.key(n, i) == key) {
                        BtreeNode.setValue(n, i, value);
                    } else {
                        BtreeNode.insertAt(n, i + 1, key, value);
                    }
                    bm.markDirty(node);
                    return;
                }
                if (i < 0) {
                    i = 0;
                    BtreeNode.setKey(n, 0, key); // the new lowest key of the subtree
                    bm.markDirty(node);
                }
                long child = BtreeNode.value(n, i);
                if (parent != null) {
                    bm.release(parent);
                }
                parent = node;
                parentIndex = i;
                node = null;
                node = bm.read(child, cpu);
            }
        } finally {
            if (node != null) {
                bm.release(node);
            }
            if (parent != null) {
                bm.release(parent);
            }
        }
    }

    /** {@code btree_split_beneath}: the full root's entries into two new children; the root, in place, points at them. */
    private void splitBeneath(Buffer rootBuf, int cpu) {
        MemorySegment n = rootBuf.data();
        int flags = BtreeNode.flags(n);
        int nr = BtreeNode.nrEntries(n);
        long leftBlock = newNode(flags, cpu);
        long rightBlock = newNode(flags, cpu);
        Buffer left = bm.read(leftBlock, cpu);
        Buffer right = bm.read(rightBlock, cpu);
        try {
            BtreeNode.moveTail(n, nr / 2, right.data());
            BtreeNode.moveTail(n, 0, left.data());
            BtreeNode.setFlags(n, BtreeNode.INTERNAL_NODE);
            BtreeNode.setNrEntries(n, 0);
            BtreeNode.insertAt(n, 0, BtreeNode.key(left.data(), 0), leftBlock);
            BtreeNode.insertAt(n, 1, BtreeNode.key(right.data(), 0), rightBlock);
            bm.markDirty(left);
            bm.markDirty(right);
            bm.markDirty(rootBuf);
        } finally {
            bm.release(left);
            bm.release(right);
        }
    }

    /** {@code btree_split_sibling}: the upper half of the full {@code node} into a new right sibling; returns it, held. */
    private Buffer splitSibling(Buffer parent, int parentIndex, Buffer node, int cpu) {
        MemorySegment n = node.data();
        long rightBlock = newNode(BtreeNode.flags(n), cpu);
        Buffer right = bm.read(rightBlock, cpu);
        BtreeNode.moveTail(n, BtreeNode.nrEntries(n) / 2, right.data());
        BtreeNode.insertAt(parent.data(), parentIndex + 1, BtreeNode.key(right.data(), 0), rightBlock);
        bm.markDirty(node);
        bm.markDirty(right);
        bm.markDirty(parent);
        return right;
    }

    /** A new empty node of {@code flags} in a newly allocated metadata block (dm_bufio_new), dirty; its block. */
    private long newNode(int flags, int cpu) {
        int block = metadataUsed.nextClearBit(1);
        if (block >= nrMetadataBlocks) {
            throw new IllegalStateException("thin: metadata device full (" + nrMetadataBlocks + " blocks)");
        }
        metadataUsed.set(block);
        Buffer b = bm.fresh(block, cpu);
        try {
            BtreeNode.init(b.data(), block, flags, maxEntries);
            bm.markDirty(b);
        } finally {
            bm.release(b);
        }
        return block;
    }

    /** The data space map's allocation: the next free block from the cursor, or -1. */
    private long allocData() {
        int n = dataRefs.length;
        for (int k = 0; k < n; k++) {
            int d = (dataCursor + k) % n;
            if (dataRefs[d] == 0) {
                dataRefs[d] = 1;
                dataCursor = (d + 1) % n;
                dataUsed++;
                return d;
            }
        }
        return -1;
    }

    /**
     * {@code thin_check}, in part, once nothing is in flight: every problem found, none if the
     * metadata is consistent. Per node: its header's block, entries within max, at least a third
     * full unless a root, keys strictly ascending and within the parent's range, every leaf at one
     * depth per tree; every node reachable once and allocated, every allocated block reachable;
     * every mapping's data block mapped once and counted in the data space map, and none counted
     * that is not mapped.
     */
    public List<String> check(int cpu) {
        rootLock.downWrite();
        try {
            Check c = walk(cpu);
            BitSet unreachable = (BitSet) metadataUsed.clone();
            unreachable.clear(0);
            unreachable.andNot(c.reached);
            if (!unreachable.isEmpty()) {
                c.problems.add("allocated metadata blocks no tree reaches: " + unreachable);
            }
            long counted = 0;
            for (int d = 0; d < dataRefs.length; d++) {
                counted += dataRefs[d] == 0 ? 0 : 1;
                if (dataRefs[d] != 0 && !c.dataSeen.get(d)) {
                    c.problems.add("data block " + d + " counted in the space map but mapped by no block");
                }
            }
            if (counted != dataUsed) {
                c.problems.add("data space map: " + counted + " blocks counted, " + dataUsed + " in use");
            }
            return c.problems;
        } finally {
            rootLock.upWrite();
        }
    }

    /** How many mappings and nodes the trees hold, and the mapping trees' depth (levels of nodes), once quiet. */
    public Shape shape(int cpu) {
        rootLock.downWrite();
        try {
            Check c = walk(cpu);
            return new Shape(c.devices.size(), c.mappings, c.reached.cardinality(), c.mappingDepth);
        } finally {
            rootLock.upWrite();
        }
    }

    /** The check's walk of the device tree and every mapping tree (under root_lock). */
    private Check walk(int cpu) {
        Check c = new Check(cpu);
        List<Long> roots = new ArrayList<>();
        c.tree(root, true, c.devices, roots);
        for (long r : roots) {
            c.mappingDepth = Math.max(c.mappingDepth, c.tree(r, false, null, null));
        }
        return c;
    }

    /** The metadata's shape: thin devices, mappings, nodes, and the deepest mapping tree's levels. */
    public record Shape(int devices, long mappings, int nodes, int mappingDepth) {}

    /** One check's walk. */
    private final class Check {
        final int cpu;
        final List<String> problems = new ArrayList<>();
        final BitSet reached = new BitSet();
        final BitSet dataSeen = new BitSet();
        final List<Long> devices = new ArrayList<>();
        long mappings;
        int mappingDepth;

        Check(int cpu) {
            this.cpu = cpu;
        }

        /** Walks the tree at {@code block}; returns its depth. {@code deviceTree}: collect (id, root) into the lists. */
        int tree(long block, boolean deviceTree, List<Long> keys, List<Long> values) {
            int[] leafDepth = {-1};
            node(block, true, 1, Long.MIN_VALUE, Long.MAX_VALUE, deviceTree, keys, values, leafDepth);
            return leafDepth[0];
        }

        private void node(long block, boolean isRoot, int depth, long lo, long hi, boolean deviceTree, List<Long> keys,
                List<Long> values, int[] leafDepth) {
            if (block <= 0 || block >= nrMetadataBlocks) {
                problems.add("node block " + block + " outside the metadata device");
                return;
            }
            if (reached.get((int) block)) {
                problems.add("block " + block + " reached twice");
                return;
            }
            reached.set((int) block);
            if (!metadataUsed.get((int) block)) {
                problems.add("block " + block + " reached but not allocated");
            }
            Buffer b = bm.read(block, cpu);
            try {
                MemorySegment n = b.data();
                int nr = BtreeNode.nrEntries(n);
                int max = BtreeNode.max(n);
                if (BtreeNode.blocknr(n) != block) {
                    problems.add("block " + block + " says it is " + BtreeNode.blocknr(n));
                }
                if (nr > max || (!isRoot && nr < max / 3)) {
                    problems.add("block " + block + " has " + nr + " of " + max + " entries");
                }
                for (int i = 0; i < nr; i++) {
                    long k = BtreeNode.key(n, i);
                    if ((i > 0 && k <= BtreeNode.key(n, i - 1)) || k < lo || k >= hi) {
                        problems.add("block " + block + " key " + i + " = " + k + " out of order or outside [" + lo + ", " + hi + ")");
                    }
                }
                if (BtreeNode.isLeaf(n)) {
                    if (leafDepth[0] < 0) {
                        leafDepth[0] = depth;
                    } else if (leafDepth[0] != depth) {
                        problems.add("leaf " + block + " at depth " + depth + ", another at " + leafDepth[0]);
                    }
                    for (int i = 0; i < nr; i++) {
                        long v = BtreeNode.value(n, i);
                        if (deviceTree) {
                            keys.add(BtreeNode.key(n, i));
                            values.add(v);
                            continue;
                        }
                        mappings++;
                        long d = v >>> 24;
                        if (d >= dataRefs.length) {
                            problems.add("mapping " + BtreeNode.key(n, i) + " -> data block " + d + " beyond the data device");
                        } else if (dataSeen.get((int) d)) {
                            problems.add("data block " + d + " mapped twice (again by " + BtreeNode.key(n, i) + ")");
                        } else {
                            dataSeen.set((int) d);
                            if (dataRefs[(int) d] == 0) {
                                problems.add("data block " + d + " mapped but free in the space map");
                            }
                        }
                    }
                    return;
                }
                for (int i = 0; i < nr; i++) {
                    long childHi = i + 1 < nr ? BtreeNode.key(n, i + 1) : hi;
                    node(BtreeNode.value(n, i), false, depth + 1, BtreeNode.key(n, i), childHi, deviceTree, keys, values, leafDepth);
                }
            } finally {
                bm.release(b);
            }
        }
    }

    /** Frees the cache; nothing may be in flight. */
    @Override
    public void close() {
        bm.close();
    }
}
