/**
 * The options of a client as plain data: the builder's settings as given, and their validated forms for a
 * client of one Redis and for a Redlock client (one set of node options per master).
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.options;
