package dev.dlock.internal.redlock;

import dev.dlock.LockClient;
import dev.dlock.internal.testing.SocketTransport;
import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;

/** What the Redlock integration tests share: a client on the masters, and reads of a lock's keys on one node. */
final class RedlockNodesSupport {
    /** The command timeout of the tests' clients: a paused node costs this much per round. */
    static final Duration COMMAND_TIMEOUT = Timing.scaled(Duration.ofMillis(400));

    private RedlockNodesSupport() {}

    /** A Redlock client over every master, on the socket transport. */
    static LockClient.Builder builder(IndependentMasters masters) {
        return LockClient.builder()
                .redlock(masters.uris().toArray(new String[0]))
                .transport(new SocketTransport.Factory())
                .commandTimeout(COMMAND_TIMEOUT);
    }

    /** The owner id on one node for a lock name (default prefix), or null. */
    static String ownerOn(RedisServer server, String name) {
        return (String) server.command("GET", RedlockScripts.keys("dlock", name)[0]);
    }

    /** Waits until a lock's key is gone on one node, at most {@link Timing#scaled} 2 s. */
    static void awaitFree(RedisServer server, String name) {
        long end = System.nanoTime() + Timing.scaled(Duration.ofSeconds(2)).toNanos();
        while (ownerOn(server, name) != null) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("lock '" + name + "' still held on " + server + ": " + ownerOn(server, name));
            }
            Thread.onSpinWait();
        }
    }

    /** The fencing counter on one node for a lock name, 0 when unset. */
    static long counterOn(RedisServer server, String name) {
        Object value = server.command("GET", RedlockScripts.keys("dlock", name)[1]);
        return value == null ? 0 : Long.parseLong((String) value);
    }
}
