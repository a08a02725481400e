package lab.engine.zram;

import io.airlift.compress.Decompressor;
import io.airlift.compress.MalformedInputException;

/*
 * zcomp (drivers/block/zram/zcomp.c): one compression stream per CPU.
 *
 *   streams[cpu] -> ZcompStrm { tfm, dtfm, buffer, localCopy }
 *
 * zcomp_stream_get(cpu) is an array load: the caller owns its slot (see lab.engine.sync), so
 * there is no lock, as the kernel's local_lock on a non-preemptible CPU costs nothing shared.
 * zcomp_stream_put has nothing to do and does not exist here.
 *
 * A stream holds everything a page I/O needs, allocated once, so compressing and decompressing
 * allocate nothing:
 *   tfm        the compressor, with its own hash table (the kernel's per-cpu workmem)
 *   dtfm       the decompressor (stateless, kept per stream for symmetry with the tfm)
 *   buffer     compression output, 2 pages as in the kernel (more if the backend's worst case
 *              needs it: aircompressor refuses an output smaller than maxCompressedLength)
 *   localCopy  the decompression side's copy of an object that straddles two pages of its
 *              zspage, which zsmalloc must gather into a contiguous buffer before it can be
 *              decompressed (zs_obj_read_begin's local copy in recent kernels, zs_map_object's
 *              per-cpu vm_buf before them)
 *
 * Padding: the buffers are written by their owner on every I/O, so each is allocated with
 * PAD bytes before and after the part in use: two streams' hot bytes are never within 128
 * bytes of each other (the pair of lines Intel's spatial prefetcher pulls together). The stream
 * objects themselves are read-only after construction and need none. The compressor's hash table
 * is allocated by aircompressor and cannot be padded; streams are built one after another, so
 * each table is separated from the next stream's by that stream's padded buffers (the JVM gives
 * no placement guarantee, but allocation order is what TLAB bump allocation and G1's copying
 * keep).
 */

/** Per-cpu compression streams: {@code zcomp_stream_get(cpu)}, {@code zcomp_compress}, {@code zcomp_decompress}. */
final class Zcomp {
    /** Bytes of padding before and after the used part of every per-cpu buffer. */
    static final int PAD = 128;

    /** One compression stream: a per-cpu slot owned by its worker. */
    static final class ZcompStrm {
        final io.airlift.compress.Compressor tfm;
        final Decompressor dtfm;
        /** Compressed output at [PAD, PAD + bufferLen). */
        final byte[] buffer;
        final int bufferLen;
        /** A straddling object gathered at [PAD, PAD + PAGE_SIZE). */
        final byte[] localCopy;

        ZcompStrm(Compressor alg) {
            this.tfm = alg.newCompressor();
            this.dtfm = alg.newDecompressor();
            this.bufferLen = Math.max(2 * Zram.PAGE_SIZE, tfm.maxCompressedLength(Zram.PAGE_SIZE));
            this.buffer = new byte[PAD + bufferLen + PAD];
            this.localCopy = new byte[PAD + Zram.PAGE_SIZE + PAD];
        }
    }

    private final ZcompStrm[] streams;

    Zcomp(Compressor alg, int nrCpus) {
        if (nrCpus < 1) {
            throw new IllegalArgumentException("nrCpus must be positive: " + nrCpus);
        }
        streams = new ZcompStrm[nrCpus];
        for (int cpu = 0; cpu < nrCpus; cpu++) {
            streams[cpu] = new ZcompStrm(alg);
        }
    }

    int nrCpus() {
        return streams.length;
    }

    /** zcomp_stream_get: the caller's stream. Owner of {@code cpu} only. */
    ZcompStrm zcompStreamGet(int cpu) {
        return streams[cpu];
    }

    /** zcomp_compress: compresses one page into {@code zstrm.buffer} at {@link #PAD}; returns the length. */
    static int zcompCompress(ZcompStrm zstrm, byte[] page) {
        return zstrm.tfm.compress(page, 0, Zram.PAGE_SIZE, zstrm.buffer, PAD, zstrm.bufferLen);
    }

    /** zcomp_decompress: {@code len} bytes at {@code src[off]} into a whole page; false if they are not one. */
    static boolean zcompDecompress(ZcompStrm zstrm, byte[] src, int off, int len, byte[] page) {
        try {
            return zstrm.dtfm.decompress(src, off, len, page, 0, Zram.PAGE_SIZE) == Zram.PAGE_SIZE;
        } catch (MalformedInputException e) {
            return false;
        }
    }
}
