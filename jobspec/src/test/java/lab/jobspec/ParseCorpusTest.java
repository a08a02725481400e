package lab.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Job files written the way people publish them (cloud and vendor benchmark commands, fio's
 * HOWTO) parse as fio 3.33 parses them: every file of {@code corpus/accepted/} is accepted by the
 * lab and by {@code fio --parse-only}; every file of {@code corpus/refused/} is refused by the lab
 * at the key and line its header names, with the reason it names, and fio's verdict on it is the
 * one its header records ("fio: accepts" where the lab is stricter or does not run the option,
 * "fio: refuses" where both refuse). The fio half is skipped where fio 3.33 is not installed.
 */
class ParseCorpusTest {
    /** {@code ; expect: KEY LINE REASON...} on the first line of a refused file. */
    private static final Pattern EXPECT = Pattern.compile("^; expect: (\\S+) (\\d+) (.+)$");
    /** {@code ; fio: accepts|refuses} on its second line. */
    private static final Pattern FIO = Pattern.compile("^; fio: (accepts|refuses)$");

    static Stream<Path> accepted() throws IOException, URISyntaxException {
        return files("accepted");
    }

    static Stream<Path> refused() throws IOException, URISyntaxException {
        return files("refused");
    }

    private static Stream<Path> files(String kind) throws IOException, URISyntaxException {
        Path dir = Path.of(ParseCorpusTest.class.getResource("/corpus/" + kind).toURI());
        List<Path> all;
        try (Stream<Path> s = Files.list(dir)) {
            all = s.filter(p -> p.toString().endsWith(".fio")).sorted().toList();
        }
        assertTrue(all.size() >= 8, kind + ": the corpus has " + all.size() + " files");
        return all.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void acceptedByTheLabAndByFio(Path file) throws Exception {
        JobFile parsed = JobFileParser.parse(file);
        assertFalse(parsed.jobs().isEmpty(), file + ": no jobs");
        InstalledFio.Result fio = InstalledFio.require().run("--parse-only", file.toString());
        assertEquals(0, fio.exit(), file + ": fio --parse-only refused it: " + fio.output());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusedAtItsKeyAndLineWithItsReason(Path file) throws Exception {
        List<String> head = Files.readAllLines(file).subList(0, 2);
        Matcher expect = EXPECT.matcher(head.get(0));
        Matcher fioVerdict = FIO.matcher(head.get(1));
        assertTrue(expect.matches() && fioVerdict.matches(), file + ": header lines missing: " + head);

        JobSpecException e = assertThrows(JobSpecException.class, () -> JobFileParser.parse(file));
        assertEquals(expect.group(1), e.key(), e.getMessage());
        assertEquals(Integer.parseInt(expect.group(2)), e.line(), e.getMessage());
        assertTrue(e.getMessage().contains(expect.group(3)), e.getMessage());
        assertTrue(e.getMessage().startsWith(file + ":" + e.line() + ": key '" + e.key() + "'"), e.getMessage());

        InstalledFio.Result fio = InstalledFio.require().run("--parse-only", file.toString());
        assertEquals(fioVerdict.group(1).equals("accepts"), fio.exit() == 0,
                file + ": the header says fio " + fioVerdict.group(1) + " it; fio exited " + fio.exit() + ": "
                        + fio.output());
    }
}
