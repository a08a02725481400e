/**
 * The blkio cgroup controller's part in a bio's life: {@link Blkcg} (a cgroup of the controller,
 * {@code struct blkcg} with its {@code cgroup_subsys_state}), and {@link CssForward}, how a bio
 * and every clone of it carry their cgroup, which is the {@code dm-css-ref} fix's switch and, with
 * its {@code lost} and {@code transfer} variants, {@code dm-blkcg-clone}'s. A cgroup's weight is
 * honoured by {@link lab.engine.iosched.Bfq} at the disk.
 */
package lab.engine.blkcg;
