/**
 * The permit model behind the semaphore and the read-write lock: weighted holds of one Redis hash.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.permit;
