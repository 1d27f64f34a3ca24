/**
 * Waiting in a Redis queue: the wait room that routes grant messages to waiters, and the queue loop
 * ({@link dev.dlock.internal.wait.QueuedAcquisition}) that sends its target's acquire script ({@link
 * dev.dlock.internal.wait.QueueTarget}: a kind of lock on one name) until granted or timed out.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.wait;
