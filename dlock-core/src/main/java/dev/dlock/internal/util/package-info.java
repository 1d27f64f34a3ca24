/**
 * Small parts every layer uses: argument checks, the clock, the client's lifecycle, callbacks and events, thread re-entry bookkeeping and the verifier's negative controls.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.util;
