package lab.engine.block;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/*
 * The memory a model RAM disk's pages live in, mapped as the kernel maps
 * its own: brd's pages come from alloc_page() and are reached through the
 * direct map, which the kernel maps with 1 GiB or 2 MiB pages, so a
 * random 4 KiB copy costs the kernel cache misses, not page-table walks.
 *
 * The model reserves one anonymous mapping for the disk's whole capacity
 * (MAP_NORESERVE: nothing is taken until a page is written, and an unwritten
 * page reads as zeros, as a sparse brd does) and asks for transparent huge
 * pages on it (MADV_HUGEPAGE; the lab's machines run THP in madvise mode).
 * Page i of the disk is bytes [i * 4096, (i + 1) * 4096) of the mapping.
 *
 * Before this, each page was its own 4 KiB allocation from a JVM arena,
 * zeroed as it was made, and filling the thin benchmark's 512 MiB volume
 * was most of a JMH fork's setup: one fork (JVM start to result, 100 ms
 * measured) took 5.1-5.5 s; with the mapping, 1.4-1.9 s. The forks'
 * spread did not shrink: the raw model's one-thread time per I/O moved by
 * 7-14% (fork CV) from one JVM to the next before, 1.5-27% after
 * (results/fork-noise-2core-20261204, "Page memory").
 *
 * Where the model simplifies: the kernel's alloc_page() can fail (brd then
 * ends the bio with an I/O error); a reservation cannot, short of the host
 * running out of memory. The mapping is private to the JVM and unmapped
 * when the disk is closed.
 */
final class DirectMap implements AutoCloseable {
    /** THP's size on x86-64 and arm64 (4 KiB base pages): the mapping is a whole number of these. */
    static final long HUGE_PAGE = 2L << 20;

    private static final int PROT_READ = 0x1;
    private static final int PROT_WRITE = 0x2;
    private static final int MAP_PRIVATE = 0x02;
    private static final int MAP_ANONYMOUS = 0x20;
    private static final int MAP_NORESERVE = 0x4000;
    private static final int MADV_HUGEPAGE = 14;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO_VALUE = CALL_STATE.varHandle(StructLayout.PathElement.groupElement("errno"));
    private static final MethodHandle MMAP = libc("mmap", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MADVISE = libc("madvise", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle MUNMAP = libc("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

    private final Arena arena = Arena.ofShared();
    /** The mapping: {@link #HUGE_PAGE}-rounded, zero until written. */
    private final MemorySegment memory;
    /** Whether the kernel took MADV_HUGEPAGE (false where THP is not built in). */
    private final boolean hugePages;

    /** Maps {@code bytes} (rounded up to {@link #HUGE_PAGE}) for {@code owner}; an error names the owner and errno. */
    DirectMap(String owner, long bytes) {
        long size = (bytes + HUGE_PAGE - 1) & -HUGE_PAGE;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CALL_STATE);
            MemorySegment addr = (MemorySegment) MMAP.invokeExact(state, MemorySegment.NULL, size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0L);
            if (addr.address() == -1L) {
                throw new IllegalStateException("brd " + owner + ": mmap of " + size + " bytes failed, errno " + (int) ERRNO_VALUE.get(state, 0L));
            }
            hugePages = (int) MADVISE.invokeExact(state, addr, size, MADV_HUGEPAGE) == 0;
            memory = addr.reinterpret(size, arena, whole -> unmap(whole, size));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("brd " + owner + ": mmap: " + t, t);
        }
    }

    /** The 4 KiB page at {@code idx}: zero until written. */
    MemorySegment page(long idx) {
        return memory.asSlice(idx * BioVec.PAGE_SIZE, BioVec.PAGE_SIZE);
    }

    /** Whether the mapping was advised for huge pages. */
    boolean hugePages() {
        return hugePages;
    }

    /** Unmaps; no slice may be used after. */
    @Override
    public void close() {
        arena.close();
    }

    private static void unmap(MemorySegment addr, long size) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CALL_STATE);
            if ((int) MUNMAP.invokeExact(state, addr, size) != 0) {
                throw new IllegalStateException("munmap of " + size + " bytes failed, errno " + (int) ERRNO_VALUE.get(state, 0L));
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("munmap: " + t, t);
        }
    }

    private static MethodHandle libc(String name, FunctionDescriptor fd) {
        MemorySegment fn = LINKER.defaultLookup().find(name).orElseThrow(() -> new IllegalStateException("libc has no " + name));
        return LINKER.downcallHandle(fn, fd, ERRNO);
    }
}
