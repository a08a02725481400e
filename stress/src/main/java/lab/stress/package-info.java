/**
 * jcstress tests of the engine's sync primitives ({@link lab.engine.sync}).
 *
 * <p>Every test that uses a QSBR {@link lab.engine.sync.Rcu} shares one per
 * test class (a grace period daemon per state object would cost a thread per
 * sample), and each actor brings its slot online at the start of its method
 * and takes it offline at the end, so every grace period, and so every test,
 * ends as soon as the actors return. Actor {@code i} owns slot {@code i}.
 * The {@code *Idle*} tests leave their slot offline on purpose: there each
 * read-side section leaves the extended quiescent state by itself. State
 * constructors and arbiters run on several threads at once, so they borrow a
 * slot of their own from {@link lab.stress.SpareSlots} for each call.
 */
package lab.stress;
