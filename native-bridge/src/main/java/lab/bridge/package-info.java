/**
 * The kernel half of a paired run: io_uring, libaio and the synchronous engines (psync, sync, pvsync) through Panama FFM over liburing, the AIO system calls and libc,
 * running the same {@link lab.jobspec.Job} specs as the engine against real block devices.
 * The only place in the lab with native calls. (Bindings and runner arrive with the
 * native-bridge issue; this module exists so that the build's shape is final.)
 */
package lab.bridge;
