package lab.engine.inject;

/**
 * What one stage of the bio's path does for the injections at it ({@link Injection#at}): called
 * by the stage's owner on the thread that owns slot {@code cpu}. {@link #NONE} does nothing; the
 * others are package-private, one class per kind, so that a call site sees one receiver type.
 */
public abstract class InjectPoint {
    /** No injection at this stage. */
    public static final InjectPoint NONE = new InjectPoint() {
        @Override
        public void hit(int cpu) {
        }

        @Override
        public String toString() {
            return "none";
        }
    };

    InjectPoint() {
    }

    /** The stage ran once on the thread that owns {@code cpu}: do its injected operations. */
    public abstract void hit(int cpu);
}
