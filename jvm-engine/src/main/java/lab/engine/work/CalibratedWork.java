package lab.engine.work;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code ns} nanoseconds of uncontended CPU per {@link #spend()}: {@link Blackhole#consumeCPU}
 * of a number of tokens fixed at construction from measurements in this JVM.
 *
 * <h2>Calibration</h2>
 * <ol>
 * <li>Warm-up: {@value #WARMUP_CALLS} calls of {@code consumeCPU}, so that the JIT queues its
 *     optimised compile.</li>
 * <li>ns per token: rounds of {@value #SAMPLES} timed samples ({@value #CALLS} calls of
 *     {@value #TOKENS} tokens each, {@link System#nanoTime()}), the median of each round; the
 *     lowest median, once at least {@value #MIN_MS} ms have passed and no round has bettered it by
 *     1% for {@value #SETTLE_MS} ms (at most {@value #MAX_MS} ms). The lowest, because everything
 *     that disturbs a round makes it slower: other threads, and above all code the JIT has not
 *     optimised yet, which runs the loop 2-3 times slower and can look steady for a while (in a
 *     fresh JMH fork the optimising compiler may be busy for tens of ms).</li>
 * <li>Tokens: {@code round(ns / nsPerToken)}, then corrected once for what a call of that size
 *     costs per token beyond step 2's long calls: divided by the call's {@linkplain #callRatio
 *     ratio} to them. At least 1. The ratio is 1 for long works; for short ones it holds the
 *     per-call overhead (a static volatile read, a compare) and, larger here, the overlap of
 *     consecutive calls: each call's dependency chain starts afresh, so the core runs one call's
 *     chain beside the next one's, and calls of 16-50 tokens in a loop cost 0.5-0.8 of a long
 *     call's ns per token on this lab's machines.</li>
 * </ol>
 * The call ratio is measured in {@value #RATIO_ROUNDS} rounds that alternate the two call sizes,
 * and is the median of the rounds' own ratios: the two sizes of one round run at the same clock
 * and beside the same neighbours, so a machine that is slower for the whole of the correction
 * than at step 2's best moment (a busy sibling hyperthread, a lower turbo clock) changes both
 * alike. Timing {@code spend()} alone against step 2's lowest took that slowdown for overhead
 * and cut a 2 us work's tokens by 17% under two niced busy loops.
 * <p>
 * <h2>One calibration for a whole run (an experiment's switch)</h2>
 * Where the JVM is given {@value #NS_PER_TOKEN_PROPERTY}, step 2 is not run and that value is
 * used, so that every JVM given it spends the same tokens for the same {@code ns}; step 3's call
 * ratio is still measured. The lab's runs do not set it: measured against each fork calibrating
 * its own work (results/fork-noise-2core-20261204, 12 forks of each in interleaved invocations),
 * one value for every fork did not make the calibrated model's forks agree better; what moves
 * them on this lab's 2-core machines is the host's speed from one minute to the next.
 * <p>
 * About 0.15 s, more on a busy machine. A token is one step of a loop-carried multiply-add, so its
 * time follows the core's clock, not memory; {@link #measuredNs()} is one {@code spend()} at step
 * 2's clock: {@code nsPerToken * tokens * callRatio(tokens)}.
 */
public final class CalibratedWork extends CpuWork {
    static final int WARMUP_CALLS = 20_000;
    static final int SAMPLES = 9;
    static final int CALLS = 16;
    static final int TOKENS = 4096;
    static final int MIN_MS = 100;
    static final int SETTLE_MS = 50;
    static final int MAX_MS = 1000;
    static final int RATIO_ROUNDS = 9;
    /** The system property that fixes ns per token for every work of this JVM (see the class comment). */
    public static final String NS_PER_TOKEN_PROPERTY = "lab.work.nsPerToken";
    /** {@value #NS_PER_TOKEN_PROPERTY} when set, else NaN. */
    private static final double FIXED_NS_PER_TOKEN = fixedNsPerToken(System.getProperty(NS_PER_TOKEN_PROPERTY));

    /** Instances made in this JVM (a test checks that base_ns=0 makes none). */
    private static final AtomicLong MADE = new AtomicLong();

    private final long ns;
    private final double nsPerToken;
    private final long tokens;
    /** One {@code spend()} as timed at construction, with the final {@link #tokens}. */
    private final double measuredNs;

    /** Calibrates now; see the class comment. {@code ns} must be positive. */
    CalibratedWork(long ns) {
        if (ns < 1) {
            throw new IllegalArgumentException("work of " + ns + " ns");
        }
        this.ns = ns;
        this.nsPerToken = Double.isNaN(FIXED_NS_PER_TOKEN) ? measureNsPerToken() : FIXED_NS_PER_TOKEN;
        long first = Math.max(1, Math.round(ns / nsPerToken));
        this.tokens = Math.max(1, Math.round(first / callRatio(first)));
        this.measuredNs = nsPerToken * tokens * callRatio(tokens);
        MADE.incrementAndGet();
    }

    /** {@code value} of {@value #NS_PER_TOKEN_PROPERTY}: NaN for none; a positive finite number, else an error naming it. */
    static double fixedNsPerToken(String value) {
        if (value == null || value.isBlank()) {
            return Double.NaN;
        }
        double v;
        try {
            v = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + NS_PER_TOKEN_PROPERTY + "=" + value + ": not a number");
        }
        if (!(v > 0) || !Double.isFinite(v)) {
            throw new IllegalArgumentException("-D" + NS_PER_TOKEN_PROPERTY + "=" + value + ": must be a positive number of ns");
        }
        return v;
    }

    /**
     * ns per token for a whole run: the median of {@code times} measurements ({@link
     * #measureNsPerToken}), less biased than one lowest median.
     */
    public static double measureForRun(int times) {
        double[] m = new double[times];
        for (int i = 0; i < times; i++) {
            m[i] = measureNsPerToken();
        }
        Arrays.sort(m);
        return m[times / 2];
    }

    /** The ns per {@code consumeCPU} token, measured now: see the class comment. */
    public static double measureNsPerToken() {
        for (int i = 0; i < WARMUP_CALLS; i++) {
            Blackhole.consumeCPU(64);
        }
        long start = System.nanoTime();
        double best = Double.MAX_VALUE;
        long bettered = start;
        for (;;) {
            double m = medianRound(TOKENS, CALLS);
            long now = System.nanoTime();
            if (m < best * 0.99) {
                bettered = now;
            }
            best = Math.min(best, m);
            long elapsedMs = (now - start) / 1_000_000;
            if ((elapsedMs >= MIN_MS && (now - bettered) / 1_000_000 >= SETTLE_MS) || elapsedMs >= MAX_MS) {
                break;
            }
        }
        if (!(best > 0 && best < Double.MAX_VALUE)) {
            throw new IllegalStateException("consumeCPU timed at " + best + " ns per token");
        }
        return best;
    }

    /** ns per token: the median of {@value #SAMPLES} samples of {@code calls} calls of {@code tokens}. */
    private static double medianRound(long tokens, int calls) {
        double[] samples = new double[SAMPLES];
        for (int s = 0; s < SAMPLES; s++) {
            long t0 = System.nanoTime();
            for (int c = 0; c < calls; c++) {
                Blackhole.consumeCPU(tokens);
            }
            samples[s] = (double) (System.nanoTime() - t0) / ((double) calls * tokens);
        }
        Arrays.sort(samples);
        return samples[SAMPLES / 2];
    }

    /**
     * One call of {@code consumeCPU(tokens)} over {@code tokens} times the ns per token of long
     * calls ({@value #CALLS} of {@value #TOKENS}): 1 for long calls, above it by the per-call
     * overhead, below it by the overlap of consecutive short calls (class comment). The median of
     * {@value #RATIO_ROUNDS} rounds' ratios, each round timing both sizes (samples of about 100 us
     * each), in alternating order.
     */
    static double callRatio(long tokens) {
        int calls = (int) Math.max(1, Math.min(100_000, 65_536 / tokens));
        double[] ratios = new double[RATIO_ROUNDS];
        for (int r = 0; r < RATIO_ROUNDS; r++) {
            double shortCalls;
            double longCalls;
            if ((r & 1) == 0) {
                shortCalls = medianRound(tokens, calls);
                longCalls = medianRound(TOKENS, CALLS);
            } else {
                longCalls = medianRound(TOKENS, CALLS);
                shortCalls = medianRound(tokens, calls);
            }
            ratios[r] = shortCalls / longCalls;
        }
        Arrays.sort(ratios);
        return ratios[RATIO_ROUNDS / 2];
    }

    /** Instances made so far in this JVM. */
    public static long made() {
        return MADE.get();
    }

    @Override
    public void spend() {
        Blackhole.consumeCPU(tokens);
    }

    @Override
    public long ns() {
        return ns;
    }

    /** The measured ns per token. */
    public double nsPerToken() {
        return nsPerToken;
    }

    /** Tokens per {@link #spend()}. */
    public long tokens() {
        return tokens;
    }

    /** One {@link #spend()} as timed at construction. */
    public double measuredNs() {
        return measuredNs;
    }

    @Override
    public String toString() {
        return String.format("%d ns of CPU (%d consumeCPU tokens at %.3f ns/token, measured %.0f ns)", ns, tokens,
                nsPerToken, measuredNs);
    }
}
