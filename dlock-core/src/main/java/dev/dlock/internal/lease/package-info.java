/**
 * Held leases: the state machine every lease shares (of one Redis, of Redlock, of a multi-lock), a lease of one Redis (mutex or permit), and the leases of a client and the watchdog that renews them.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.lease;
