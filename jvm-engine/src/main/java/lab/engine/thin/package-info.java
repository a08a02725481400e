/**
 * dm-thin (drivers/md/dm-thin.c, dm-thin-metadata.c, persistent-data/): a {@link
 * lab.engine.thin.ThinPool} whose {@link lab.engine.thin.ThinMetadata} keeps the mapping of
 * virtual to data blocks in a two-level btree read through a dm-bufio client
 * ({@link lab.engine.bufio}), and the {@link lab.engine.thin.ThinTarget} that looks every bio up
 * in it. The bufio client's lock is the thin-bufio-lock switch. A pool may start its worker
 * ({@link lab.engine.thin.ThinPool#startWorker}): writes to unprovisioned blocks are then
 * provisioned and issued from the worker's thread, as dm-thin's {@code do_worker} does.
 */
package lab.engine.thin;
