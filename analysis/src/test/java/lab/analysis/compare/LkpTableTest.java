package lab.analysis.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class LkpTableTest {
    @Test
    void rendersTheLkpLayout() {
        List<Comparison> rows = List.of(
            // 1250000 ± 4%, 1390000 ± 0.72% (rounds to 1): +11.2%, CIs overlap
            new Comparison("will-it-scale.per_thread_ops",
                Sample.of(1_200_000, 1_250_000, 1_300_000), Sample.of(1_380_000, 1_390_000, 1_400_000), true),
            // 5000 ± 0%, 4000 ± 0.25% (rounds to 0): no ± at all; separated CIs
            new Comparison("vmstat.system.cs", Sample.of(5000, 5000, 5000), Sample.of(4000, 4010, 3990), false),
            // two decimals from 1
            new Comparison("cpu.util", Sample.of(62.8, 62.8), Sample.of(65.65, 65.65), false),
            // one run each: three significant digits, no ±, no verdict
            new Comparison("latency.ms", Sample.of(0.0042), Sample.of(0.0051), false));
        String expected = String.join("\n",
            "```",
            "          atomic                  percpu-ref",
            "---------------- ---------------------------",
            "         %stddev     %change         %stddev",
            "             \\          |                \\",
            "   1250000 ±  4%     +11.2%    1390000 ±  1%  will-it-scale.per_thread_ops",
            "      5000           -20.0%*      4000        vmstat.system.cs",
            "     62.80            +4.5%*     65.65        cpu.util",
            "   0.00420           +21.4%    0.00510        latency.ms",
            "```",
            LkpTable.LEGEND,
            "");
        assertEquals(expected, LkpTable.render("atomic", "percpu-ref", rows));
    }

    @Test
    void numbersNeverUseAnExponent() {
        assertEquals("123456789012", LkpTable.number(123_456_789_012.4));
        assertEquals("1235", LkpTable.number(1234.5));
        assertEquals("1000", LkpTable.number(1000));
        assertEquals("999.99", LkpTable.number(999.994));
        assertEquals("1.00", LkpTable.number(1));
        assertEquals("-2.50", LkpTable.number(-2.5));
        assertEquals("0.190", LkpTable.number(0.19));
        assertEquals("0.0000123", LkpTable.number(0.0000123));
        assertEquals("0", LkpTable.number(0));
    }

    @Test
    void stddevShownFromOnePercent() {
        assertEquals(" ±  1%", LkpTable.stddev(Sample.of(99.5, 100.5)));   // 0.71% rounds to 1
        assertEquals("", LkpTable.stddev(Sample.of(99.7, 100.3)));         // 0.42% rounds to 0
        assertEquals("", LkpTable.stddev(Sample.of(100)));
        assertEquals(" ±141%", LkpTable.stddev(Sample.of(0, 2)));
    }

    @Test
    void changeHasSignAndOneDecimal() {
        assertEquals("+12.3%", LkpTable.change(12.34));
        assertEquals("-0.0%", LkpTable.change(-0.04));
        assertEquals("+0.0%", LkpTable.change(0));
        assertEquals("n/a", LkpTable.change(Double.NaN));
    }
}
