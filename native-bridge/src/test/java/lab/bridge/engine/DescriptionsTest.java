package lab.bridge.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import lab.bridge.ffi.Errno;
import lab.bridge.ffi.ErrnoException;
import lab.bridge.ffi.Libc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A clone's own open file descriptions, on a real file. */
class DescriptionsTest {
    @TempDir
    Path dir;

    private Path bytes() throws IOException {
        byte[] b = new byte[256];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) i;
        }
        return Files.write(dir.resolve("f"), b);
    }

    private static int readOne(int fd) throws ErrnoException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(1);
            assertEquals(1, Libc.read(fd, buf, 1));
            return Byte.toUnsignedInt(buf.get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    /** The position, which sync moves, is the new description's alone. */
    @Test
    void reopenedDescriptionHasItsOwnPosition() throws Exception {
        int fd = Libc.open(bytes().toString(), Libc.O_RDONLY | Libc.O_CLOEXEC);
        try {
            int[] own = Descriptions.reopen(new int[] {fd, fd});
            try {
                assertNotEquals(own[0], own[1]);
                Libc.lseek(own[0], 100);
                Libc.lseek(own[1], 200);
                assertEquals(0, readOne(fd));
                assertEquals(100, readOne(own[0]));
                assertEquals(200, readOne(own[1]));
            } finally {
                Descriptions.close(own, own.length);
            }
            ErrnoException closed = assertThrows(ErrnoException.class, () -> Libc.statusFlags(own[0]));
            assertEquals(Errno.EBADF, closed.errno());
        } finally {
            Libc.close(fd);
        }
    }

    /** The access mode is the descriptor's: a read-only one stays read-only. */
    @Test
    void reopenKeepsTheAccessMode() throws Exception {
        int fd = Libc.open(bytes().toString(), Libc.O_RDONLY | Libc.O_CLOEXEC);
        try {
            int[] own = Descriptions.reopen(new int[] {fd});
            try {
                assertEquals(Libc.O_RDONLY, Libc.statusFlags(own[0]) & 3);
                try (Arena a = Arena.ofConfined()) {
                    ErrnoException e = assertThrows(ErrnoException.class, () -> Libc.write(own[0], a.allocate(1), 1));
                    assertEquals(Errno.EBADF, e.errno());
                }
            } finally {
                Descriptions.close(own, own.length);
            }
        } finally {
            Libc.close(fd);
        }
    }

    /** All or none: a bad descriptor fails the call and closes what was opened before it. */
    @Test
    void reopenFailingHalfwayLeavesNothingOpen() throws Exception {
        int fd = Libc.open(bytes().toString(), Libc.O_RDONLY | Libc.O_CLOEXEC);
        try {
            long before = openDescriptors();
            ErrnoException e = assertThrows(ErrnoException.class, () -> Descriptions.reopen(new int[] {fd, 1 << 20}));
            assertEquals(Errno.EBADF, e.errno());
            assertEquals(before, openDescriptors());
        } finally {
            Libc.close(fd);
        }
    }

    private static long openDescriptors() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }
}
