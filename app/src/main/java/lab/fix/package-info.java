/**
 * The fixes the lab studies, one package each ({@code lab.fix.<id>}), and the machinery that runs
 * them ({@link lab.fix.Pairing}, {@link lab.fix.Rounds}, {@link lab.fix.JmhOptions},
 * {@link lab.fix.JmhFlamegraph}, {@link lab.fix.Steps}).
 *
 * <p>A fix's package is the whole fix above the engine: its unit ({@link lab.fix.FixUnit}: the
 * seed's facts and figures stated once, the variants taken from the engine's ids), its raw-file
 * contract (one class the pairing writes by and the section reads by), its {@link lab.fix.Pairing}
 * (the JMH benchmark, one flamegraph per variant, the kernel scenario
 * {@code kernel-scripts/scenarios/<id>/}) and its notebook section, built from analysis's shared
 * skeleton ({@code lab.notebook.Page}, {@code lab.notebook.Parts}) and split by concept so that no
 * file holds more than one table's logic. {@link lab.fix.Fixes#ALL} lists every fix once, in the
 * headline table's order; a fix not yet modelled is its seed's facts alone.
 */
package lab.fix;
