/**
 * Contention points added on purpose: the lab's job key {@code inject=STAGE:KIND[:COUNT]}
 * ({@link lab.jobspec.Inject}, its grammar) given code. {@link Injection} is built once per run
 * from a job's list and hands each stage of the bio's path one {@link InjectPoint}, kept in a
 * final field where the stage runs; a stage nobody asked for gets {@link InjectPoint#NONE}, whose
 * {@code hit} is empty. Every atomic and cmpxchg point of one injection works on one shared word
 * (as the seed's probe was one refcount), every mutex point on one mutex, every rwsem-read point
 * on one rw_semaphore; a percpu point on the caller's own padded slot (the control). The shared
 * operations report to the run's {@link lab.engine.count.SharedLines} under site
 * {@value lab.engine.inject.Injection#SITE}, so the prediction counts them as it counts the
 * model's own.
 */
package lab.engine.inject;
