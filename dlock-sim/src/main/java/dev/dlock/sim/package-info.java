/**
 * A deterministic simulation of Redis for dlock (issue 26): {@link dev.dlock.sim.SimRedis}, an in-memory server that
 * runs dlock's own Lua scripts unchanged through LuaJ, and {@link dev.dlock.sim.SimTransport}, dlock's {@link
 * dev.dlock.spi.Transport} over it, whose every command, reply and message passes through a {@link
 * dev.dlock.sim.SimNetwork}. Test support: never shipped.
 */
package dev.dlock.sim;
