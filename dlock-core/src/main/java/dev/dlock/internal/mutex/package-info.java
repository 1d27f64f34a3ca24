/**
 * The mutex: the per-name relay inside one JVM (the gate) and the lock object the API hands out.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.mutex;
