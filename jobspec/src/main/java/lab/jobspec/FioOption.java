package lab.jobspec;

import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * One row of {@link OptionTable}: an option of fio 3.33, every spelling fio accepts for it, and
 * what the lab does with it.
 *
 * @param name        fio's own name for it (what {@code fio --cmdhelp} prints)
 * @param aliases     the other spellings fio accepts, unmodifiable, often empty
 * @param optionClass what the lab does when a job file sets it
 * @param reason      for {@link OptionClass#NO_EFFECT} and {@link OptionClass#REFUSED}, why, in
 *                    a few words; null for {@link OptionClass#IMPLEMENTED}
 */
public record FioOption(String name, List<String> aliases, OptionClass optionClass, String reason) {
    public FioOption {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(optionClass, "optionClass");
        aliases = List.copyOf(aliases);
        if ((optionClass == OptionClass.IMPLEMENTED) != (reason == null)) {
            throw new IllegalArgumentException(name + ": a reason is given exactly when the option is not implemented");
        }
    }

    /** The name, then the aliases. */
    public List<String> spellings() {
        return Stream.concat(Stream.of(name), aliases.stream()).toList();
    }

    /** {@code name (alias, alias): reason}, the reason and parentheses only where there are some. */
    public String describe() {
        StringBuilder b = new StringBuilder(name);
        if (!aliases.isEmpty()) {
            b.append(" (").append(String.join(", ", aliases)).append(')');
        }
        if (reason != null) {
            b.append(": ").append(reason);
        }
        return b.toString();
    }
}
