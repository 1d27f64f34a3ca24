package dev.dlock.verify;

import dev.dlock.testkit.RedisServer;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything a scenario needs to know about the run.
 *
 * @param redisUri the Redis all scenarios use (the AOF server this run started, or the user's {@code --redis})
 * @param server the AOF server when this run started it, else {@code null} (server faults are then skipped)
 * @param noPersistenceServer the server without persistence, or {@code null}
 * @param ttl lease time of every client
 * @param commandTimeout command timeout of every client
 * @param holdMax longest ordinary hold between read and write
 * @param seed the seed of the fault schedule and of every worker's choices
 * @param rounds how often each scenario's fault list is repeated
 * @param tailAcquires acquires after the last fault (and, for a control, its whole length)
 * @param keyPrefix the dlock key prefix of this run, unique per run
 * @param clientName the {@code CLIENT SETNAME} of this run's clients
 * @param outDir where histories are written
 * @param maxScenario longest a scenario may wait for its workload before it is declared stalled
 * @param transport the transport of every dlock client of the run, holder JVMs included
 */
record RunSettings(
        String redisUri,
        RedisServer server,
        RedisServer noPersistenceServer,
        Duration ttl,
        Duration commandTimeout,
        Duration holdMax,
        long seed,
        int rounds,
        int tailAcquires,
        String keyPrefix,
        String clientName,
        Path outDir,
        Duration maxScenario,
        ClientTransport transport) {}
