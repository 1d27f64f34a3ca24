/**
 * A lock over several locks, acquired together and lost together.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.multi;
