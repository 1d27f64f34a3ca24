/**
 * Waiting in a Redis queue: the wait room that routes grant messages to waiters, and the queue loop that sends an acquire script until granted or timed out.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.wait;
