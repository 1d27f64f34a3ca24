/** Distributed locks on Redis: the public API. */
package dev.dlock;
