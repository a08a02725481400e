package lab.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import lab.engine.block.RamDisk;
import lab.engine.bufio.Buffer;
import lab.engine.bufio.BufioClient;
import lab.engine.bufio.BufioLocking;
import lab.engine.count.SharedLines;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * dm-bufio, striped (6.4's trees: holds taken under a tree's read lock, atomically): two readers
 * that take and drop a hold on the same cached block at once lose no hold, and the buffer both
 * got is the one cached. Under a shared lock a plain hold++ would lose one; under the rwsem and
 * the striped locks it is an atomic.
 */
@JCStressTest
@Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "every hold dropped; both readers got the cached buffer")
@Outcome(expect = FORBIDDEN, desc = "a hold lost or left, or a reader got another buffer")
@State
public class BufioHoldTest {
    private static final RamDisk DISK = new RamDisk("ram1", 1 << 20);
    final BufioClient c = new BufioClient(DISK, 4096, 8, BufioLocking.STRIPED, 2, new BufioClient.Validator() {
        @Override
        public void prepareForWrite(long block, java.lang.foreign.MemorySegment data) {
        }

        @Override
        public boolean check(long block, java.lang.foreign.MemorySegment data) {
            return true;
        }
    }, SharedLines.NONE);
    final Buffer cached;
    int same;

    public BufioHoldTest() {
        cached = c.read(3, 0);
        c.release(cached);
    }

    @Actor
    public void reader1() {
        Buffer b = c.get(3);
        if (b == cached) {
            synchronized (this) {
                same++;
            }
        }
        c.release(b);
    }

    @Actor
    public void reader2() {
        Buffer b = c.get(3);
        if (b == cached) {
            synchronized (this) {
                same++;
            }
        }
        c.release(b);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = cached.holdCount();
        r.r2 = same;
        c.close();
    }
}
