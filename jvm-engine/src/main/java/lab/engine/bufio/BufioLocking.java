package lab.engine.bufio;

import java.util.Arrays;
import java.util.List;

/**
 * How a {@link BufioClient} locks its cache: the thin-bufio-lock switch (seed
 * 004_779fcd164b83d477.txt), chosen when the client is created, as dm-bufio's were by kernel
 * version.
 */
public enum BufioLocking {
    /** 6.1 and before: {@code c->lock}, a mutex, taken by every get and every release (two per btree node). */
    MUTEX("mutex"),
    /** The series' patch 2: the client lock an rw_semaphore; gets and releases share it, hold counts atomic. */
    RWSEM("rwsem"),
    /** Patches 1 + 4 on top: dm-thin takes the read lock once for a whole btree walk, no hold counts inside it. */
    RWSEM_WALK("rwsem-walk"),
    /** 6.4's rework: the buffers in N cache-line-separated trees, each under its own rw_semaphore, chosen by block number. */
    STRIPED("striped");

    private final String id;

    BufioLocking(String id) {
        this.id = id;
    }

    /** The name the job key, the benchmark and the notebook use. */
    public String id() {
        return id;
    }

    /** Every id, in the order of the kernel's history. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(BufioLocking::id).toList();
    }

    /** The locking named {@code id}. */
    public static BufioLocking of(String id) {
        for (BufioLocking l : values()) {
            if (l.id.equals(id)) {
                return l;
            }
        }
        throw new IllegalArgumentException("unknown bufio locking '" + id + "' (" + String.join(", ", ids()) + ")");
    }
}
