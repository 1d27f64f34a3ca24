/**
 * The one place that turns the builder's settings into a connected client, of one Redis or Redlock.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.connect;
