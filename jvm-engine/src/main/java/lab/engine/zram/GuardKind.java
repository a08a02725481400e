package lab.engine.zram;

/**
 * What protects zram's meta (slot table and zsmalloc pool) from being freed by a reset while an
 * I/O uses it: the variants of the 2015 init_lock discussion (linux-mm, "zram: remove init_lock in
 * zram_make_request") plus today's kernel. See {@link MetaGuard} for the contract and each
 * implementation for its per-I/O cost.
 */
public enum GuardKind {
    /** {@code down_read(&zram->init_lock)} around each I/O: one locked xadd on a shared line in, one out. */
    RWSEM("rwsem"),
    /** {@code srcu_read_lock}/{@code srcu_read_unlock}: a per-cpu increment and a full fence in, and out. */
    SRCU("srcu"),
    /** Minchan Kim's patch: {@code zram_meta_get}/{@code zram_meta_put}, an inc-not-zero CAS loop and a decrement on one shared count. */
    ATOMIC_REF("atomic-ref"),
    /** Today's kernel: nothing per I/O; reset refuses (here: waits) while the block device is open. */
    NONE("none");

    private final String cliName;

    GuardKind(String cliName) {
        this.cliName = cliName;
    }

    /** The lab's command-line name. */
    public String cliName() {
        return cliName;
    }

    /** The guard whose {@link #cliName()} is {@code cliName}. */
    public static GuardKind of(String cliName) {
        for (GuardKind g : values()) {
            if (g.cliName.equals(cliName)) {
                return g;
            }
        }
        throw new IllegalArgumentException("unknown zram guard '" + cliName + "' (known: rwsem, srcu, atomic-ref, none)");
    }
}
