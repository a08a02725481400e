package lab.jobspec.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The JSON writer and reader of {@link FioReport}. One {@link ObjectMapper}, configured once:
 * indented output like fio's, the target stream left open (it may be {@code System.out}), and
 * unknown fields ignored on read so that real fio JSON parses too.
 */
public final class FioJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** {@code ctime(3)} without its newline: {@code "Tue Nov  3 09:05:01 2026"}. */
    private static final DateTimeFormatter CTIME =
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT);

    private FioJson() {
    }

    /** Writes {@code report} to {@code out}, followed by a newline; leaves {@code out} open. */
    public static void write(FioReport report, OutputStream out) throws IOException {
        MAPPER.writeValue(out, report);
        out.write('\n');
        out.flush();
    }

    /** Reads a report; fields this model does not know (fio has many) are skipped. */
    public static FioReport read(InputStream in) throws IOException {
        return MAPPER.readValue(in, FioReport.class);
    }

    /** {@code instant} as fio's {@code "time"} field, in the local time zone. */
    public static String ctime(Instant instant) {
        return CTIME.format(instant.atZone(ZoneId.systemDefault()));
    }
}
