package lab.engine.load;

import java.util.Arrays;
import java.util.List;
import lab.jobspec.Job;

/**
 * The data patterns the lab names, each the fio buffer keys it stands for, so that a pattern
 * chosen by name (a benchmark's {@code pattern} variant) and a pattern written in a job file are
 * the same thing with fio's meaning ({@link lab.jobspec.BufferPattern}). {@link #settings()} are
 * job-file lines that set every buffer key the pattern depends on, so that appended to a job they
 * replace whatever pattern it had; {@link #of(Job)} names the pattern a job's keys describe.
 */
public enum DataPattern {
    /** fio {@code buffer_compress_percentage=50}: each 512-byte chunk half random, half zeros (refilled per write). */
    COMPRESSIBLE50("compressible50", 50, false),
    /** fio {@code zero_buffers}: zeros, never scrambled. */
    ZERO("zero", 0, true),
    /** fio's default buffer, random bytes, with {@code refill_buffers}: incompressible, fresh for each fill. */
    RANDOM("random", 0, false);

    private final String id;
    /** {@code buffer_compress_percentage}; 0 is unset. */
    private final int compressPercentage;
    /** {@code zero_buffers}. */
    private final boolean zeroBuffers;

    DataPattern(String id, int compressPercentage, boolean zeroBuffers) {
        this.id = id;
        this.compressPercentage = compressPercentage;
        this.zeroBuffers = zeroBuffers;
    }

    /** The name benchmarks, scripts and results use. */
    public String id() {
        return id;
    }

    /**
     * Job-file lines that set every buffer key this pattern depends on ({@code zero_buffers},
     * {@code buffer_compress_percentage}, {@code refill_buffers}); appended to a job section they
     * override its pattern and nothing else.
     */
    public List<String> settings() {
        return List.of("zero_buffers=" + (zeroBuffers ? 1 : 0),
                "buffer_compress_percentage=" + compressPercentage,
                "refill_buffers=" + (this == RANDOM ? 1 : 0));
    }

    /**
     * The pattern {@code job}'s buffer keys describe, with fio's precedence
     * ({@code buffer_compress_percentage} over {@code zero_buffers}; 100 is zeros).
     *
     * @throws IllegalArgumentException for a compress percentage the lab names no pattern for
     */
    public static DataPattern of(Job job) {
        int percent = job.bufferCompressPercentage();
        if (percent == 100 || (percent == 0 && job.zeroBuffers())) {
            return ZERO;
        }
        if (percent == 0) {
            return RANDOM;
        }
        for (DataPattern p : values()) {
            if (p.compressPercentage == percent) {
                return p;
            }
        }
        throw new IllegalArgumentException(job.source() + ":" + job.line() + ": buffer_compress_percentage="
                + percent + " is no named data pattern (" + String.join(", ", ids()) + ")");
    }

    /** Every pattern's {@link #id()}, in declaration order. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(DataPattern::id).toList();
    }

    /** The pattern named {@code id}. */
    public static DataPattern of(String id) {
        for (DataPattern p : values()) {
            if (p.id.equals(id)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown data pattern: " + id + " (" + String.join(", ", ids()) + ")");
    }
}
