package lab.engine.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The per-cpu layout: whatever the number of fields in a slot, and wherever the long[] starts
 * (the JVM aligns it to 8 bytes only), no field of one cpu's slot shares a 128-byte-aligned pair
 * of cache lines with a field of another cpu's slot, with the array's header, or with whatever
 * follows the array. The check is on the index arithmetic, in bytes.
 */
class PercpuSlotsTest {
    private static final int LONG_BYTES = 8;
    /** Two cache lines: what the adjacent-line prefetcher moves together. */
    private static final int PAIR = 128;
    private static final int[] NR_CPUS = {1, 2, 3, 5, 8};

    static IntStream fieldCounts() {
        return IntStream.rangeClosed(1, 20);
    }

    @ParameterizedTest(name = "{0} fields")
    @MethodSource("fieldCounts")
    void slotsOfDifferentCpusAreAtLeastTwoLinesApart(int fields) {
        for (int nrCpus : NR_CPUS) {
            PercpuSlots slots = new PercpuSlots(nrCpus, fields);
            for (int a = 0; a < nrCpus; a++) {
                for (int b = 0; b < nrCpus; b++) {
                    if (a == b) {
                        continue;
                    }
                    for (int fa = 0; fa < fields; fa++) {
                        for (int fb = 0; fb < fields; fb++) {
                            long d = Math.abs((long) slots.index(a, fa) - slots.index(b, fb)) * LONG_BYTES;
                            assertTrue(d >= PAIR, fields + " fields, " + nrCpus + " cpus: cpu " + a + " field " + fa
                                    + " and cpu " + b + " field " + fb + " are " + d + " bytes apart");
                        }
                    }
                }
            }
        }
    }

    /** The same property stated as the prefetcher sees it: for every base alignment, distinct line pairs. */
    @ParameterizedTest(name = "{0} fields")
    @MethodSource("fieldCounts")
    void noLinePairHoldsTwoCpusOrTheArrayEdges(int fields) {
        int nrCpus = 4;
        PercpuSlots slots = new PercpuSlots(nrCpus, fields);
        for (int base = 0; base < PAIR; base += LONG_BYTES) { // byte address of element 0, mod 128
            long headerPair = Math.floorDiv(base - 1, PAIR);  // the array's header ends just before element 0
            long afterPair = Math.floorDiv(base + (long) slots.length() * LONG_BYTES, PAIR); // what follows the array
            long[] owner = new long[nrCpus + 2];
            for (int cpu = 0; cpu < nrCpus; cpu++) {
                for (int f = 0; f < fields; f++) {
                    long pair = Math.floorDiv(base + (long) slots.index(cpu, f) * LONG_BYTES, PAIR);
                    String at = fields + " fields, base " + base + ": cpu " + cpu + " field " + f;
                    assertTrue(pair != headerPair && pair != afterPair, at + " shares a line pair with the array's edge");
                    for (int other = 0; other < cpu; other++) {
                        for (int g = 0; g < fields; g++) {
                            long otherPair = Math.floorDiv(base + (long) slots.index(other, g) * LONG_BYTES, PAIR);
                            assertTrue(pair != otherPair, at + " shares a line pair with cpu " + other + " field " + g);
                        }
                    }
                }
            }
        }
    }

    /** Each slot starts a whole number of line pairs after the previous one. */
    @ParameterizedTest(name = "{0} fields")
    @MethodSource("fieldCounts")
    void strideIsAMultipleOf128Bytes(int fields) {
        PercpuSlots slots = new PercpuSlots(3, fields);
        int stride = (slots.index(1, 0) - slots.index(0, 0)) * LONG_BYTES;
        assertEquals(0, stride % PAIR, fields + " fields: stride " + stride + " bytes");
        assertEquals(stride, (slots.index(2, 0) - slots.index(1, 0)) * LONG_BYTES);
    }

    /** Owner writes land in their own slot only; sums read every slot; bad indices are refused. */
    @Test
    void slotsHoldTheirOwnFieldsAndSumsSeeThemAll() {
        PercpuSlots slots = new PercpuSlots(3, 20);
        for (int cpu = 0; cpu < 3; cpu++) {
            for (int f = 0; f < 20; f++) {
                slots.addOpaque(cpu, f, 100L * cpu + f);
            }
        }
        assertEquals(100 + 200 + 3 * 19, slots.sumOpaque(19));
        assertEquals(3 * (18 + 19) + 2 * 300, slots.sumOpaque(18, 2));
        assertEquals(205, slots.getPlain(2, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> slots.getPlain(3, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> slots.sumOpaque(20));
        assertThrows(IllegalArgumentException.class, () -> slots.sumOpaque(19, 2));
        assertThrows(IllegalArgumentException.class, () -> new PercpuSlots(1, 0));
    }
}
