package lab.jobspec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the subset of fio's job-file format that the lab runs, the way fio 3.33 reads it.
 *
 * <ul>
 * <li>Sections are {@code [name]}. {@code [global]} settings apply to every job section after
 *     it; a later {@code [global]} adds to them for later jobs only. Duplicate job names are
 *     allowed, as in fio.</li>
 * <li>{@code ;} and {@code #} start a comment anywhere in a line (fio's {@code strip_blank_end}),
 *     so values cannot contain them. Blank lines are skipped; blanks around keys, {@code =}
 *     and values are dropped; {@code \r\n} endings are accepted.</li>
 * <li>{@code key=value}, or a flag key alone meaning {@code =1}. fio takes a bare key only for
 *     its "set" options ({@code time_based}, {@code thread}...); the lab also takes it for
 *     {@code direct}, {@code scramble_buffers} and {@code randrepeat}. Keys are case-sensitive.
 *     The implemented keys ({@link Keys}), value syntax and bounds are those of {@link FioUnits}
 *     and {@link JobBuilder}. Any other key is looked up in {@link OptionTable}: an option of
 *     fio's with no effect on what is measured is accepted, its value unread, with a
 *     {@link Notice} on the {@link JobFile}; any other option of fio's is refused with the
 *     table's reason; a key fio 3.33 does not know is refused as unknown, naming the nearest
 *     known key when one is near ({@link KeySuggestion}).</li>
 * </ul>
 *
 * <p>Every refusal is a {@link JobSpecException} naming file, 1-based line and key. Whole-file
 * problems (missing, unreadable, no job section) are line 0 with no key; a line that is not text
 * (a NUL byte or invalid UTF-8) is that line with key {@code -}. A refused key is left out and the
 * reading goes on, and so does a job that is refused as a whole (its sizes, its engine's keys):
 * the exception thrown at the end is the file's first refusal, with every one in
 * {@link JobSpecException#refusals()}. A section header that cannot be read stops the reading
 * there (what follows has no job to belong to).
 */
public final class JobFileParser {
    private static final String GLOBAL = "global";

    private final Path file;
    private final List<Job> jobs = new ArrayList<>();
    private final List<Notice> notices = new ArrayList<>();
    /** Every refusal so far, in file order: a refused key or job does not stop the reading. */
    private final List<JobSpecException> refusals = new ArrayList<>();
    private final Map<String, Setting> global = new LinkedHashMap<>();
    /** Each job's {@code wait_for} setting, by job index; checked against later jobs at the end. */
    private final Map<Integer, Setting> waitFor = new LinkedHashMap<>();
    /** Settings of the section being read: {@link #global} itself, or a job's copy of it. */
    private Map<String, Setting> current;
    private String jobName;
    private int jobLine;

    private JobFileParser(Path file) {
        this.file = file;
    }

    /** Parses {@code file}; see the class comment for what is accepted. */
    public static JobFile parse(Path file) throws JobSpecException {
        return parse(file, read(file));
    }

    /**
     * Parses {@code text} as the contents of a job file named {@code source} (which need not
     * exist: messages name it), e.g. a job file rendered in memory ({@link JobRender}).
     */
    public static JobFile parse(Path source, String text) throws JobSpecException {
        return parse(source, text.getBytes(StandardCharsets.UTF_8));
    }

    private static JobFile parse(Path file, byte[] bytes) throws JobSpecException {
        JobFileParser p = new JobFileParser(file);
        List<String> lines = p.lines(bytes);
        for (int i = 0; i < lines.size(); i++) {
            p.line(lines.get(i), i + 1);
        }
        p.closeJob();
        if (!p.refusals.isEmpty()) {
            throw JobSpecException.of(p.refusals);
        }
        if (p.jobs.isEmpty()) {
            throw new JobSpecException(file, 0, null, "no job section (only [global] or comments)");
        }
        p.checkWaiteesUnique();
        return new JobFile(file, p.jobs, p.notices);
    }

    private static byte[] read(Path file) throws JobSpecException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new JobSpecException(file, 0, null, "no such file");
        } catch (IOException e) {
            throw new JobSpecException(file, 0, null, "cannot read: " + e);
        }
    }

    /** Splits at {@code \n} and decodes each line as strict UTF-8 without NUL. */
    private List<String> lines(byte[] bytes) throws JobSpecException {
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < bytes.length) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            lines.add(decode(utf8, bytes, start, end, lines.size() + 1));
            start = end + 1;
        }
        return lines;
    }

    private String decode(CharsetDecoder utf8, byte[] bytes, int start, int end, int line) throws JobSpecException {
        for (int i = start; i < end; i++) {
            if (bytes[i] == 0) {
                throw new JobSpecException(file, line, "-", "not a text file (NUL byte)");
            }
        }
        try {
            return utf8.reset().decode(ByteBuffer.wrap(bytes, start, end - start)).toString();
        } catch (CharacterCodingException e) {
            throw new JobSpecException(file, line, "-", "not a text file (invalid UTF-8)");
        }
    }

    private void line(String raw, int line) throws JobSpecException {
        String text = withoutComment(raw).strip();
        if (text.isEmpty() || (line == 1 && text.equals("\uFEFF"))) {
            return;
        }
        if (line == 1 && text.charAt(0) == '\uFEFF') {
            text = text.substring(1).strip();
        }
        if (text.charAt(0) == '[') {
            try {
                section(text, line);
            } catch (JobSpecException e) {
                // a section that cannot be read leaves the lines after it without a job: stop here
                refusals.add(e);
                throw JobSpecException.of(refusals);
            }
        } else {
            try {
                setting(text, line);
            } catch (JobSpecException e) {
                refusals.add(e); // the line is left out, and the rest of the file is still read
            }
        }
    }

    /** {@code raw} up to its first {@code ;} or {@code #} (fio's {@code strip_blank_end}). */
    static String withoutComment(String raw) {
        int cut = raw.length();
        int semicolon = raw.indexOf(';');
        int hash = raw.indexOf('#');
        if (semicolon >= 0) {
            cut = semicolon;
        }
        if (hash >= 0 && hash < cut) {
            cut = hash;
        }
        return raw.substring(0, cut);
    }

    private void section(String text, int line) throws JobSpecException {
        if (text.charAt(text.length() - 1) != ']') {
            throw new JobSpecException(file, line, text, "section header has no closing ']'");
        }
        String name = text.substring(1, text.length() - 1).strip();
        if (name.isEmpty()) {
            throw new JobSpecException(file, line, text, "section name is empty");
        }
        closeJob();
        if (name.equals(GLOBAL)) {
            current = global;
        } else {
            current = new LinkedHashMap<>(global);
            jobName = name;
            jobLine = line;
        }
    }

    private void setting(String text, int line) throws JobSpecException {
        int eq = text.indexOf('=');
        String key = (eq < 0 ? text : text.substring(0, eq)).strip();
        String value = eq < 0 ? null : text.substring(eq + 1).strip();
        if (key.isEmpty()) {
            throw new JobSpecException(file, line, "=", "line has no key");
        }
        if (current == null) {
            throw new JobSpecException(file, line, key, "setting before any [section]");
        }
        String canonical = Keys.canonical(key);
        if (canonical == null) {
            notImplemented(key, line);
            return;
        }
        if (value == null && !Keys.isFlag(canonical)) {
            throw new JobSpecException(file, line, key, "needs a value (key=value)");
        }
        if (value != null && value.isEmpty()) {
            throw new JobSpecException(file, line, key, "empty value");
        }
        current.put(canonical, new Setting(key, value == null ? "1" : value, line));
    }

    /**
     * A key {@link Keys} does not implement: a notice when it is an option of fio's with no effect
     * here, else refused, saying why ({@link OptionTable}) or that fio does not know it either.
     */
    private void notImplemented(String key, int line) throws JobSpecException {
        FioOption option = OptionTable.find(key).orElseThrow(() -> unknown(key, line));
        if (option.optionClass() != OptionClass.NO_EFFECT) {
            throw new JobSpecException(file, line, key,
                    "fio option '" + key + "' is not supported by the lab: " + option.reason());
        }
        notices.add(new Notice(file, line, key, option.reason()));
    }

    private JobSpecException unknown(String key, int line) {
        String problem = "unknown key (not an option of fio 3.33)";
        return new JobSpecException(file, line, key,
                problem + KeySuggestion.nearest(key).map(k -> "; did you mean '" + k + "'?").orElse(""));
    }

    /** Builds the job being read, if any; a job refused is recorded with the file's refusals and left out. */
    private void closeJob() {
        if (jobName != null) {
            try {
                Job job = JobBuilder.build(file, jobName, jobLine, current);
                checkWaitee(job, current.get("wait_for"));
                jobs.add(job);
            } catch (JobSpecException e) {
                refusals.add(e);
            }
            jobName = null;
        }
    }

    /** fio's {@code wait_for_ok()}: the waitee is exactly one earlier job, not the job itself. */
    private void checkWaitee(Job job, Setting s) throws JobSpecException {
        if (s == null) {
            return;
        }
        String waitee = s.value();
        if (waitee.equals(job.name())) {
            throw new JobSpecException(file, s.line(), s.key(), "job '" + job.name() + "' cannot wait for itself");
        }
        long earlier = jobs.stream().filter(j -> j.name().equals(waitee)).count();
        if (earlier == 0) {
            throw new JobSpecException(file, s.line(), s.key(), "waitee job '" + waitee
                    + "' unknown: wait_for names a job defined before this one (fio's rule)");
        }
        if (earlier > 1) {
            throw new JobSpecException(file, s.line(), s.key(), earlier + " jobs before this one are named '"
                    + waitee + "'; give the waitee a name of its own (fio refuses multiple waitees)");
        }
        waitFor.put(jobs.size(), s);
    }

    /**
     * A waitee's name used again by a later job: fio accepts it and then waits for both at run
     * time, which can hang behind a stonewall; the lab refuses it.
     */
    private void checkWaiteesUnique() throws JobSpecException {
        for (Map.Entry<Integer, Setting> e : waitFor.entrySet()) {
            Setting s = e.getValue();
            for (int later = e.getKey() + 1; later < jobs.size(); later++) {
                Job j = jobs.get(later);
                if (j.name().equals(s.value())) {
                    throw new JobSpecException(file, s.line(), s.key(), "waitee '" + s.value()
                            + "' is also the name of a later job (line " + j.line()
                            + "); fio would wait for both; give the waitee a name of its own");
                }
            }
        }
    }
}
