package lab.engine.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NullBlkTest {

    static final class Recorder implements BioEndIo {
        final Bioset set;
        long done;
        long lastLatency;
        long minLatency = Long.MAX_VALUE;
        BlkStatus status;

        Recorder(Bioset set) {
            this.set = set;
        }

        @Override
        public void endIo(Bio bio) {
            lastLatency = System.nanoTime() - bio.issueTime;
            minLatency = Math.min(minLatency, lastLatency);
            status = bio.status;
            done++;
            set.free(bio);
        }
    }

    private static Bio bio(Bioset set, Recorder r, int cpu, long sector, int size) {
        Bio bio = set.alloc(cpu, r);
        bio.sector = sector;
        bio.size = size;
        bio.issueTime = System.nanoTime();
        return bio;
    }

    @Test
    void immediateModeCompletesInsideSubmit() {
        try (Bioset set = new Bioset(1, 4096)) {
            Recorder r = new Recorder(set);
            NullBlk dev = NullBlk.immediate("nullb0", 1 << 20, 512);
            dev.submitBio(bio(set, r, 0, 0, 4096));
            assertEquals(1, r.done);
            assertEquals(BlkStatus.OK, r.status);
        }
    }

    @Test
    void timerModeCompletesNoEarlierThanTheLatency() {
        long latency = 2_000_000;   // 2 ms
        try (Bioset set = new Bioset(2, 4096)) {
            Recorder r = new Recorder(set);
            NullBlk dev = NullBlk.timer("nullb0", 1 << 20, 512, latency, 2);
            for (int i = 0; i < 40; i++) {
                dev.submitBio(bio(set, r, 1, i * 8L, 4096));
            }
            assertEquals(0, r.done, "nothing completes in submit");
            assertEquals(0, dev.poll(0), "slot 0 has nothing of slot 1's");
            while (r.done < 40) {
                dev.poll(1);
            }
            assertTrue(r.minLatency >= latency, "completed after " + r.minLatency + " ns");
            assertEquals(BlkStatus.OK, r.status);
        }
    }

    @Test
    void beyondCapacityOrMisalignedEndsWithIoError() {
        try (Bioset set = new Bioset(1, 8192)) {
            Recorder r = new Recorder(set);
            NullBlk dev = NullBlk.timer("nullb0", 1 << 20, 4096, 1_000_000, 1);
            dev.submitBio(bio(set, r, 0, (1 << 20) / 512 - 8, 8192));   // last page + one beyond
            assertEquals(BlkStatus.IOERR, r.status);
            r.status = null;
            dev.submitBio(bio(set, r, 0, 1, 4096));                      // not 4 KiB aligned
            assertEquals(BlkStatus.IOERR, r.status);
            assertEquals(2, r.done, "errors complete at once, even in timer mode");
        }
    }
}
