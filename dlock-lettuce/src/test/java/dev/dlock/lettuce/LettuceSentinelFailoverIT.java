package dev.dlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.SentinelSetup;
import dev.dlock.testkit.Timing;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * After a failover the command and pub/sub connections reach the new master by themselves: after a
 * killed master (the connection drops, Lettuce asks the sentinels again) and after a paused master
 * that came back demoted (the connection stays up and answers {@code READONLY}, which the transport
 * turns into a reconnect). One topology per test: each fails its master over.
 */
final class LettuceSentinelFailoverIT {
    private static final System.Logger LOG = System.getLogger(LettuceSentinelFailoverIT.class.getName());

    @RegisterExtension
    final TopologyExtension<SentinelSetup> sentinel =
            SentinelSetup.builder().replicas(1).extension();

    private LockClient client(SentinelSetup setup) {
        return LockClient.builder()
                .redisUri(setup.uri())
                .transport(new LettuceTransportFactory())
                .commandTimeout(Duration.ofMillis(500))
                .build();
    }

    @Test
    void aKilledMasterIsFollowed(SentinelSetup setup) throws Exception {
        try (LockClient holder = client(setup);
                LockClient waiter = client(setup)) {
            Lease held = holder.lock("w").acquire();
            setup.awaitReplicasInSync();
            long start = System.nanoTime();
            setup.currentMaster().kill();
            RedisServer promoted = setup.awaitFailover(Timing.scaled(Duration.ofSeconds(30)));
            Lease after = Failovers.acquireWithin(holder, "after", Duration.ofSeconds(15));
            LOG.log(
                    System.Logger.Level.INFO,
                    "acquire on the new master {0} ms after the kill",
                    (System.nanoTime() - start) / 1_000_000);
            assertThat(promoted.command("EXISTS", "dlock:{after}")).isEqualTo(1L);
            after.release();
            // The waiter queues on the new master and is woken by the release's message there. Its connections went
            // down with the old master and reconnect on their own backoff: a probe waits until they are up, so the
            // acquire below queues within its wait on a busy host too.
            Failovers.acquireWithin(waiter, "probe", Duration.ofSeconds(15)).release();
            CompletableFuture<Lease> waiting = waiter.lock("w").acquireAsync(Timing.scaled(Duration.ofSeconds(10)));
            Failovers.awaitQueued(promoted, "w", waiting);
            held.release();
            waiting.get(Timing.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)
                    .release();
        }
    }

    @Test
    void aMasterThatComesBackDemotedIsLeft(SentinelSetup setup) throws Exception {
        try (LockClient holder = client(setup);
                LockClient waiter = client(setup)) {
            holder.lock("warm").acquire().release();
            RedisServer old = setup.currentMaster();
            old.pause();
            RedisServer promoted = setup.awaitFailover(Timing.scaled(Duration.ofSeconds(30)));
            setup.rejoin(old); // resumes it and makes it a replica: the clients' connections to it stay up
            assertThat(old.command("ROLE")).asList().first().isEqualTo("slave");
            Lease after = Failovers.acquireWithin(holder, "after", Duration.ofSeconds(15));
            assertThat(promoted.command("EXISTS", "dlock:{after}")).isEqualTo(1L);
            // The waiter's connection is still up to the demoted master too: its first script there
            // fails with READONLY (and drops that connection), later ones reach the new master.
            Failovers.acquireWithin(waiter, "probe", Duration.ofSeconds(15)).release();
            CompletableFuture<Lease> waiting = waiter.lock("after").acquireAsync(Timing.scaled(Duration.ofSeconds(10)));
            Failovers.awaitQueued(promoted, "after", waiting);
            after.release();
            waiting.get(Timing.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)
                    .release();
        }
    }
}
