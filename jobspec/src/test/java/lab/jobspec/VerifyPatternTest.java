package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** verify_pattern's bytes as fio's parse_and_fill_pattern() makes them, and verify= with it. */
class VerifyPatternTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "0xdeadbeef | deadbeef",
            "0XAA | aa",
            "0xabc | 0abc",
            "0xff0x14 | ff14",
            "0 | 00",
            "255 | ff",
            "256 | 0001",
            "-12 | f4ffffff",
            "2147483647 | ffffff7f",
            "'\"abc\"' | 616263",
            "'0xff\"ab\"-12' | ff6162f4ffffff",
    })
    void bytesAreFios(String text, String hex) {
        assertEquals(hex, HexFormat.of().formatHex(VerifyPattern.parse(text)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "%o | formats such as %o",
            "'0xff%o' | formats such as %o",
            "'''file''' | from a file",
            "0x | without hex digits",
            "abc | is not a number",
            "2147483648 | outside",
            "'\"abc' | closing",
    })
    void badPatternsSayWhy(String text, String words) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VerifyPattern.parse(text));
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }

    @Test
    void atMostFiosMaxPatternSize() {
        assertEquals(512, VerifyPattern.parse("0x" + "ab".repeat(512)).length);
        assertThrows(IllegalArgumentException.class, () -> VerifyPattern.parse("0x" + "ab".repeat(513)));
    }

    private static Job job(String lines) throws JobSpecException {
        return JobFileParser.parse(Path.of("v.fio"), "[j]\nsize=1m\n" + lines + "\n").jobs().getFirst();
    }

    /** fio's str_verify_pattern_cb: verify_pattern alone makes verify=pattern; with a verify= it adds to it. */
    @Test
    void verifyPatternAloneMeansVerifyPattern() throws Exception {
        Job alone = job("verify_pattern=0xdeadbeef");
        assertEquals(Verify.PATTERN, alone.verify());
        assertArrayEquals(new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef}, alone.verifyPatternBytes());
        Job md5 = job("verify=md5\nverify_pattern=\"lab\"");
        assertEquals(Verify.MD5, md5.verify());
        assertEquals("\"lab\"", md5.verifyPattern());
        assertNull(job("verify=sha1").verifyPattern());
        assertEquals("0xdeadbeef", lab.jobspec.report.FioOptions.of(alone).get("verify_pattern"));
        assertEquals("pattern", lab.jobspec.report.FioOptions.of(alone).get("verify"));
    }

    @Test
    void refusalsNameTheLineAndKey() {
        TestJobs.assertRefused("[j]\nsize=1m\nverify=pattern\n", 3, "verify", "does not set");
        TestJobs.assertRefused("[j]\nsize=1m\nverify=md5\nverify_pattern=%o\n", 4, "verify_pattern", "%o");
        TestJobs.assertRefused("[j]\nsize=1m\nverify=crc64\n", 3, "verify", "md5, sha1, sha256, meta, pattern");
    }
}
