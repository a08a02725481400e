package lab.analysis.flame;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import lab.analysis.MalformedResultException;

/**
 * How much of a profile's samples ran inside each of some frames: for each frame, the samples
 * whose stack holds it (once per stack, however deep it recurs) over all samples. Read from
 * collapsed stacks ({@code frame;frame;... COUNT}, gzip'd when the name ends in {@code .gz}),
 * as perf script's collapse and async-profiler write them; kernel frames carry perf's
 * {@code _[k]} suffix, which a frame name here leaves out.
 *
 * @param samples all the profile's samples
 * @param shares  frame -> its inclusive share, in the order asked
 */
public record FrameShares(long samples, Map<String, Double> shares) {

    /** The shares of {@code frames} in {@code file}; a malformed line or no sample is an error naming file and line. */
    public static FrameShares of(Path file, List<String> frames) throws IOException, MalformedResultException {
        Map<String, Long> inside = new LinkedHashMap<>();
        frames.forEach(f -> inside.put(f, 0L));
        long total = 0;
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                long count = FlameGraphSvg.count(file, n, line);
                int sp = line.lastIndexOf(' ');
                total += count;
                Set<String> seen = new HashSet<>();
                for (String frame : line.substring(0, sp).split(";")) {
                    String name = frame.endsWith("_[k]") ? frame.substring(0, frame.length() - 4) : frame;
                    if (inside.containsKey(name) && seen.add(name)) {
                        inside.merge(name, count, Long::sum);
                    }
                }
            }
        }
        if (total == 0) {
            throw new MalformedResultException(file, "no samples");
        }
        Map<String, Double> shares = new LinkedHashMap<>();
        long all = total;
        inside.forEach((f, c) -> shares.put(f, (double) c / all));
        return new FrameShares(total, shares);
    }
}
