package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockServerException;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.SentinelSetup;
import dev.dlock.testkit.Timing;
import dev.dlock.testkit.TopologyExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The transport behind Sentinel, on real processes (one topology per test: most fail the master
 * over): connect through the sentinels, follow a failover after a kill, leave a demoted master that
 * answers {@code READONLY}, and the errors when no sentinel answers or none knows the master.
 */
final class RespSentinelIT {
    private static final Duration FAILOVER = Timing.scaled(Duration.ofSeconds(30));

    @RegisterExtension
    final TopologyExtension<SentinelSetup> sentinel =
            SentinelSetup.builder().replicas(1).masterName("orders").extension();

    static LockClient client(String uri) {
        return LockClient.builder()
                .redisUri(uri)
                .transport(new RespTransportFactory())
                .keyPrefix("t")
                .leaseTime(Duration.ofSeconds(60)) // no watchdog round or queue refresh during a failover
                .commandTimeout(Duration.ofSeconds(5))
                .build();
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + FAILOVER.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            Thread.sleep(20);
        }
    }

    @Test
    void acquireAndRelease_onTheMasterTheSentinelsName(SentinelSetup setup) {
        try (LockClient client = client(setup.uri())) {
            try (Lease lease = client.lock("a").acquire()) {
                assertThat(setup.initialMaster().command("HGET", "t:{a}", "token"))
                        .isEqualTo(Long.toString(lease.fencingToken()));
            }
            assertThat(setup.initialMaster().command("EXISTS", "t:{a}")).isEqualTo(0L);
        }
    }

    @Test
    void masterKilled_clientFollowsTheFailover_andHandsOffOverPubSubOnTheNewMaster(SentinelSetup setup)
            throws Exception {
        RedisServer master = setup.initialMaster();
        try (LockClient holder = client(setup.uri());
                LockClient waiter = client(setup.uri());
                LockClient idle = client(setup.uri())) {
            idle.lock("warm").acquire().release(); // connected, holding nothing at the kill
            Lease held = holder.lock("job").acquire();
            CompletableFuture<Lease> waiting = waiter.lock("job").acquireAsync(Duration.ofSeconds(60));
            await("the waiter to queue", () -> Long.valueOf(1).equals(master.command("ZCARD", "t:{job}:q")));
            setup.awaitReplicasInSync();

            master.kill();
            RedisServer promoted = setup.awaitFailover(FAILOVER);

            // The same clients, not rebuilt: the idle one acquires on the new master...
            try (Lease again = idle.lock("warm").acquire()) {
                assertThat(promoted.command("HGET", "t:{warm}", "token"))
                        .isEqualTo(Long.toString(again.fencingToken()));
            }
            // ...and so does the holder, a new lock...
            try (Lease other = holder.lock("other").acquire()) {
                assertThat(promoted.command("HGET", "t:{other}", "token"))
                        .isEqualTo(Long.toString(other.fencingToken()));
            }
            // ...and, once the waiter's subscription is back (on the new master), a hand-off by pub/sub:
            // well within its queue refresh (20 s) and the holder's TTL (60 s), so not found by polling.
            await(
                    "the waiter's subscription on the new master",
                    () -> !((List<?>) promoted.command("PUBSUB", "CHANNELS", "t:{job}:wake:*")).isEmpty());
            assertThat(waiting).isNotDone();
            long released = System.nanoTime();
            held.release();
            Lease handedOver = waiting.get(Timing.scaled(Duration.ofSeconds(3)).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released))
                    .isLessThan(Timing.scaled(Duration.ofSeconds(3)).toMillis());
            assertThat(promoted.command("HGET", "t:{job}", "token"))
                    .isEqualTo(Long.toString(handedOver.fencingToken()));
            assertThat(handedOver.fencingToken()).isGreaterThan(held.fencingToken());
            handedOver.release();
        }
    }

    @Test
    void pausedMasterBackAsReplica_readOnlyMovesTheClientToTheNewMaster(SentinelSetup setup) throws Exception {
        RedisServer old = setup.initialMaster();
        try (LockClient client = LockClient.builder()
                .redisUri(setup.uri())
                .transport(new RespTransportFactory())
                .keyPrefix("t")
                .clientName("readonly-test")
                .build()) {
            client.lock("warm").acquire().release(); // the connection to the old master is up and used
            old.pause();
            RedisServer promoted = setup.awaitFailover(FAILOVER);
            setup.rejoin(old); // SIGCONT and REPLICAOF at once: no CLIENT KILL, so our connection stays up
            assertThat(String.valueOf(old.command("CLIENT", "LIST", "TYPE", "normal")))
                    .contains("name=readonly-test");

            // The first write meets READONLY on the connection that stayed up: it did not run, and fails as
            // its own outcome. The connection moves at once, so the next one runs on the new master.
            assertThatThrownBy(() -> client.lock("after").tryAcquire(Duration.ZERO))
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("READONLY");
            Optional<Lease> next = client.lock("after").tryAcquire(Duration.ZERO);
            assertThat(next).isPresent();
            assertThat(promoted.command("HGET", "t:{after}", "token"))
                    .isEqualTo(Long.toString(next.get().fencingToken()));
            next.get().release();
            assertThat(promoted.command("EXISTS", "t:{after}")).isEqualTo(0L);
            assertThat(String.valueOf(old.command("CLIENT", "LIST", "TYPE", "normal")))
                    .doesNotContain("name=readonly-test");
        }
    }

    @Test
    void noSentinelAnswers_failsClearly_namingTheMaskedUri() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String uri = "redis-sentinel://:s3cret@127.0.0.1:" + silent.getLocalPort() + "#orders";
            long start = System.nanoTime();
            assertThatThrownBy(() -> new RespTransportFactory().connect(Scripts.config(uri, Duration.ofMillis(500))))
                    .isInstanceOf(LockConnectionException.class)
                    .hasMessageContaining("no sentinel answered for master 'orders'")
                    .hasMessageContaining("redis-sentinel://:***@127.0.0.1:")
                    .hasMessageNotContaining("s3cret");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1500);
        }
    }

    @Test
    void sentinelsDoNotKnowTheMaster_failsClearly(SentinelSetup setup) {
        String uri = setup.uri().replace("#orders", "#nosuch");
        assertThatThrownBy(() -> new RespTransportFactory().connect(Scripts.config(uri, Duration.ofSeconds(2))))
                .isInstanceOf(LockConnectionException.class)
                .hasMessageContaining("the sentinels do not know master 'nosuch'")
                .hasMessageContaining(uri);
    }

    @Test
    void sentinelsTriedInTurn_deadFirstSentinelIsSkipped(SentinelSetup setup) {
        setup.sentinels().get(0).kill();
        try (LockClient client = client(setup.uri())) {
            client.lock("b").acquire().release();
        }
    }
}
