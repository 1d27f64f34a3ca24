/**
 * Redlock over independent masters: a script runner per node, the quorum acquire, and the Redlock client.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.redlock;
