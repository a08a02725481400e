package lab.bridge.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A subcommand's arguments, read the way the lab's picocli command line reads them:
 * {@code --opt VALUE} or {@code --opt=VALUE} for options that take a value, bare {@code --flag}
 * for the others, {@code --} ending the options, everything else positional. A problem is a
 * {@link UsageException} whose message is one line.
 */
final class Args {
    /** A command line the subcommand cannot take: exit 2 with the message. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    final List<String> positional = new ArrayList<>();
    /** Each option's values in order (a flag: one empty string per use). */
    final Map<String, List<String>> options = new LinkedHashMap<>();

    private Args() {
    }

    static Args parse(List<String> args, Set<String> valued, Set<String> flags) throws UsageException {
        Args a = new Args();
        boolean optionsDone = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (optionsDone || !arg.startsWith("-") || arg.equals("-")) {
                a.positional.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                optionsDone = true;
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            if (valued.contains(name)) {
                String value;
                if (eq >= 0) {
                    value = arg.substring(eq + 1);
                } else if (i + 1 < args.size()) {
                    value = args.get(++i);
                } else {
                    throw new UsageException("option " + name + " needs a value");
                }
                a.options.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            } else if (flags.contains(name) && eq < 0) {
                a.options.computeIfAbsent(name, k -> new ArrayList<>()).add("");
            } else {
                throw new UsageException("unknown option '" + arg + "'");
            }
        }
        return a;
    }

    boolean has(String option) {
        return options.containsKey(option);
    }

    List<String> all(String option) {
        return options.getOrDefault(option, List.of());
    }

    /** The option's value, or null; given twice is a usage error. */
    String one(String option) throws UsageException {
        List<String> v = all(option);
        if (v.size() > 1) {
            throw new UsageException("option " + option + " given more than once");
        }
        return v.isEmpty() ? null : v.getFirst();
    }
}
