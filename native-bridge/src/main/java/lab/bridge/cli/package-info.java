/**
 * The bridge's own command line, {@code native-bridge/target/bridge.jar} ({@link lab.bridge.cli.BridgeMain}):
 * {@code run} and {@code spec render}, with no dependency on the lab's picocli front, which calls
 * the same classes for {@code ./lab bridge run} and {@code ./lab spec render}.
 */
package lab.bridge.cli;
