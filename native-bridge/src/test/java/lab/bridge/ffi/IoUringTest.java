package lab.bridge.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class IoUringTest {
    @BeforeEach
    void needIoUring() {
        UringSupport.assumeIoUring();
    }

    @Test
    void layoutsMatchLiburing23() {
        assertEquals(104, Liburing.IO_URING_SQ.byteSize());
        assertEquals(88, Liburing.IO_URING_CQ.byteSize());
        assertEquals(216, Liburing.IO_URING.byteSize());
        assertEquals(68, Liburing.offset(Liburing.IO_URING, "sq", "sqe_tail"));
        assertEquals(192, Liburing.offset(Liburing.IO_URING, "flags"));
        assertEquals(200, Liburing.offset(Liburing.IO_URING, "features"));
        assertEquals(40, Liburing.offset(Liburing.IO_URING_SQE, "buf_index"));
    }

    @Test
    void initThenExitTwiceLeaksNoFd() throws Exception {
        long before = openFds();
        for (int round = 0; round < 2; round++) {
            IoUring ring = IoUring.init(8, 0);
            assertEquals(8, ring.sqEntries());
            assertEquals(16, ring.cqEntries());
            assertTrue(ring.ringFd() >= 0);
            assertEquals(before + 1, openFds(), "the ring holds exactly one fd");
            ring.close();
            ring.close(); // idempotent
            assertEquals(before, openFds(), "round " + round + " leaked an fd");
        }
    }

    @Test
    void viewsDieWithTheRing() throws Exception {
        IoUring ring = IoUring.init(4, 0);
        ring.close();
        assertThrows(IllegalStateException.class, ring::cqReady);
    }

    @Test
    void nopsComeBackWithTheirUserData() throws Exception {
        try (IoUring ring = IoUring.init(4, 0)) {
            for (int i = 0; i < 4; i++) {
                int slot = ring.getSqe();
                assertTrue(slot >= 0);
                ring.prepRw(slot, Liburing.IORING_OP_NOP, (byte) 0, -1, 0, 0, 0, (short) 0, 1000 + i);
            }
            assertEquals(-1, ring.getSqe(), "a ring of 4 holds 4 SQEs");
            assertEquals(4, ring.sqPending());
            assertEquals(4, ring.submit());
            assertEquals(0, ring.sqPending());
            assertEquals(0, ring.waitCqes(4));
            assertEquals(4, ring.cqReady());
            int head = ring.cqHead();
            long sum = 0;
            for (int i = 0; i < 4; i++) {
                assertEquals(0, ring.cqeRes(head + i));
                sum += ring.cqeUserData(head + i);
            }
            assertEquals(4006, sum);
            ring.cqAdvance(4);
            assertEquals(0, ring.cqReady());
            assertEquals(-Errno.EAGAIN, ring.waitCqes(0), "nothing ready and nothing to wait for");
        }
    }

    @Test
    void initRefusalNamesTheErrno() {
        ErrnoException e = assertThrows(ErrnoException.class, () -> IoUring.init(0, 0));
        assertEquals("EINVAL", e.errnoName());
        assertTrue(e.getMessage().startsWith("io_uring_queue_init_params(0, flags 0x0): EINVAL"), e.getMessage());
    }

    static long openFds() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
