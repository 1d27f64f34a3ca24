/**
 * The client of one Redis: its validated options, the client that assembles the collaborators of a connection, and the admin view.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.client;
