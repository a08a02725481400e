package lab.bridge.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * What {@link Libc} and {@link Liburing} share: the linker, handle construction, and the
 * per-thread errno capture segment of {@link Linker.Option#captureCallState}.
 *
 * <p>The capture segment is allocated once per thread (auto arena, freed with the thread's
 * last reference) so that a downcall on the hot path ({@code pread}) allocates nothing; the
 * JVM writes errno into it right after the call returns, before any other native code of
 * the same thread can run, so reading it after a failed call names that call's error.
 */
final class Native {
    static final Linker LINKER = Linker.nativeLinker();

    /** errno capture: the layout's only member on Linux is {@code int errno}. */
    static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(groupElement("errno"))
            .withInvokeExactBehavior();

    private static final ThreadLocal<MemorySegment> CAPTURE =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));

    private Native() {
    }

    /** A downcall handle to {@code name} in {@code lookup}; fails class init if the symbol is missing. */
    static MethodHandle downcall(SymbolLookup lookup, String name, FunctionDescriptor desc,
            Linker.Option... options) {
        MemorySegment addr = lookup.find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("symbol not found: " + name));
        return LINKER.downcallHandle(addr, desc, options);
    }

    /** This thread's errno capture segment, passed as the first argument of capturing handles. */
    static MemorySegment capture() {
        return CAPTURE.get();
    }

    /** errno as the last capturing downcall of this thread left it in {@code capture}. */
    static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }
}
