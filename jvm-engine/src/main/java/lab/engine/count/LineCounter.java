package lab.engine.count;

/**
 * The count of one kind of operation at one site ({@link SharedLines#counter}): the model calls
 * {@link #add()} right where it does the operation. Fetched once, at construction, and kept in a
 * final field; in the timed run it is {@link SharedLines#NONE}'s, whose {@code add} is empty.
 */
public abstract class LineCounter {
    /** Only this package makes counters: {@link SharedLines#NONE}'s and {@link LineTally}'s. */
    LineCounter() {
    }

    /** One operation happened. */
    public abstract void add();
}
