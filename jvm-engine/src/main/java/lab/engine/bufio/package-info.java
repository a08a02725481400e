/**
 * dm-bufio (drivers/md/dm-bufio.c): {@link lab.engine.bufio.BufioClient}, a block cache whose
 * lock is the thin-bufio-lock switch ({@link lab.engine.bufio.BufioLocking}: 6.1's mutex, the
 * 2022 series' rw_semaphore and its lock-per-walk, 6.4's striped trees).
 */
package lab.engine.bufio;
