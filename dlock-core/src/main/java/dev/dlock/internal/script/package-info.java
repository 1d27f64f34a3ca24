/**
 * The Lua scripts, the keys they take, the runner that sends them over a transport, and the readers of their replies.
 *
 * <p>Internal: not API, it may change without notice; no module but dlock-core may use it.
 */
package dev.dlock.internal.script;
