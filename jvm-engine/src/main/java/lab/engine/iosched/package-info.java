/**
 * The request queue below the bio layer, where cgroup weights are honoured: a
 * {@link lab.engine.iosched.RequestQueue} (a null_blk disk of finite bandwidth, one request at a
 * time) whose elevator is {@link lab.engine.iosched.Bfq}, BFQ's proportional share among the
 * cgroups the bios are charged to. Whether a bio that crossed a dm stack is still charged to its
 * issuer's cgroup is the {@code dm-blkcg-clone} fix.
 */
package lab.engine.iosched;
