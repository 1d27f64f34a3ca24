package dev.dlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.testkit.ClusterSetup;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cluster transport on a local Redis Cluster of three masters with a replica each: slots, routing,
 * scripts on every master, replica acknowledgements (and the re-sent {@code WAIT} trap on a node
 * connection), resharding, and a master's failover, which runs last as the topology is shared.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class LettuceClusterIT {
    private static final System.Logger LOG = System.getLogger(LettuceClusterIT.class.getName());

    @RegisterExtension
    static final TopologyExtension<ClusterSetup> cluster =
            ClusterSetup.builder().masters(3).replicasPerMaster(1).extension();

    private static final Script SET =
            Script.of("set", "redis.call('SET', KEYS[1], ARGV[1]) return 1", Script.Reply.INTEGER);
    private static final Script DBSIZE = Script.of("size", "return redis.call('DBSIZE')", Script.Reply.INTEGER);

    private static Transport connect(String name) {
        return new LettuceTransportFactory()
                .connect(TransportConfig.of(cluster.get().seedUri(), Timing.scaled(Duration.ofSeconds(2)), name));
    }

    private static LockClient client() {
        return LockClient.builder()
                .redisUri(cluster.get().seedUri())
                .transport(new LettuceTransportFactory())
                .commandTimeout(Duration.ofMillis(500))
                .build();
    }

    @Test
    @Order(1)
    void slotsAreTheClustersAndScriptsRunWhereTheirKeyLives() throws Exception {
        try (Transport transport = connect("slots")) {
            for (String key : List.of("dlock:{a}", "dlock:{orders}:q", "plain")) {
                assertThat(transport.slot(key)).isEqualTo(ClusterSetup.slotOf(key));
            }
            for (String name : List.of("a", "b", "c", "d", "e", "f")) {
                String key = "dlock:{" + name + "}";
                transport.eval(SET, new String[] {key}, new String[] {name}).get(5, TimeUnit.SECONDS);
                RedisServer owner = cluster.get().nodeForSlot(ClusterSetup.slotOf(key));
                assertThat(owner.command("GET", key)).isEqualTo(name);
            }
        }
    }

    @Test
    @Order(2)
    void aKeylessScriptRunsOnEveryMaster() throws Exception {
        try (Transport transport = connect("masters")) {
            assertThat(transport.masterCount()).isEqualTo(3);
            List<Object> sizes = new java.util.ArrayList<>();
            for (int master = 0; master < transport.masterCount(); master++) {
                sizes.add(transport.evalOnMaster(master, DBSIZE, new String[0]).get(5, TimeUnit.SECONDS));
            }
            long total = 0;
            for (RedisServer master : cluster.get().masters()) {
                total += (Long) master.command("DBSIZE");
            }
            assertThat(sizes.stream().mapToLong(s -> (Long) s).sum()).isEqualTo(total);
        }
    }

    @Test
    @Order(3)
    void locksWorkAndFollowAReshardedSlot() throws Exception {
        try (LockClient a = client();
                LockClient b = client()) {
            Lease held = a.lock("moving").acquire();
            CompletableFuture<Lease> waiting = b.lock("moving").acquireAsync(Timing.scaled(Duration.ofSeconds(10)));
            int slot = ClusterSetup.slotOf("dlock:{moving}");
            RedisServer from = cluster.get().nodeForSlot(slot);
            Failovers.awaitQueued(from, "moving", waiting);
            RedisServer to = cluster.get().masters().stream()
                    .filter(m -> m != from)
                    .findFirst()
                    .orElseThrow();
            cluster.get().migrateSlot(slot, from, to);
            held.release(); // MOVED, followed to the new owner; its message wakes the waiter
            Lease next = waiting.get(Timing.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            assertThat(to.command("EXISTS", "dlock:{moving}")).isEqualTo(1L);
            next.release();
        }
    }

    @Test
    @Order(4)
    void theSlotsReplicaAcknowledges() throws Exception {
        try (Transport transport = connect("ack")) {
            Replicated r = transport
                    .evalReplicated(
                            SET,
                            new String[] {"{acked}"},
                            new String[] {"1"},
                            new ReplicaAck(1, Duration.ofSeconds(5), false))
                    .get(10, TimeUnit.SECONDS);
            assertThat(r.reply()).isEqualTo(1L);
            assertThat(r.acknowledged()).isEqualTo(1);
        }
    }

    /** As in LettuceReplicaAckIT, on a cluster node's connection: a re-sent WAIT is no acknowledgement. */
    @Test
    @Order(5)
    void aWaitResentOnANewNodeConnectionIsNoAcknowledgement() throws Exception {
        String key = "{trap}";
        RedisServer master = cluster.get().nodeForSlot(ClusterSetup.slotOf(key));
        RedisServer replica = cluster.get().replicasOf(master).get(0);
        try (Transport transport = connect("trap")) {
            transport.eval(SET, new String[] {key}, new String[] {"0"}).get(5, TimeUnit.SECONDS);
            replica.pause();
            try {
                master.command("CLIENT", "KILL", "TYPE", "replica"); // a stopped replica cannot reconnect
                CompletableFuture<Replicated> pending = transport.evalReplicated(
                        SET,
                        new String[] {key},
                        new String[] {"1"},
                        new ReplicaAck(1, Timing.scaled(Duration.ofSeconds(8)), false));
                LettuceReplicaAckIT.killWhileWaiting(master, "trap");
                replica.resume();
                assertThatThrownBy(() -> pending.get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .cause()
                        .isInstanceOf(LockConnectionException.class)
                        .hasMessageContaining("not proven");
            } finally {
                if (replica.isPaused()) {
                    replica.resume();
                }
            }
            cluster.get().awaitStateOk(Timing.scaled(Duration.ofSeconds(20)));
        }
    }

    @Test
    @Order(6)
    void aKilledMasterIsFollowedAndTheSubscriptionSurvives() throws Exception {
        try (LockClient holder = client();
                LockClient waiter = client()) {
            Lease held = holder.lock("w").acquire();
            CompletableFuture<Lease> first = waiter.lock("w").acquireAsync(Timing.scaled(Duration.ofSeconds(10)));
            Failovers.awaitQueued(cluster.get().nodeForSlot(ClusterSetup.slotOf("dlock:{w}")), "w", first);
            held.release();
            first.get(10, TimeUnit.SECONDS).release(); // the waiter's pub/sub connection is open now
            RedisServer subscribed = subscribedNode();
            // Kill a master that also carries the waiter's subscription: the subscribed node itself if it
            // is a master, else (a replica) it dies too, beside another shard's master.
            RedisServer master = cluster.get().masters().contains(subscribed)
                    ? subscribed
                    : cluster.get().masters().stream()
                            .filter(m -> !cluster.get().replicasOf(m).contains(subscribed))
                            .findFirst()
                            .orElseThrow();
            String name = nameOn(master);
            holder.lock(name).acquire().release(); // the slot's connection is open before the kill
            long start = System.nanoTime();
            master.kill();
            if (subscribed != master) {
                subscribed.kill();
            }
            Lease after = Failovers.acquireWithin(holder, name, Duration.ofSeconds(30));
            long followMs = (System.nanoTime() - start) / 1_000_000;
            LOG.log(
                    System.Logger.Level.INFO,
                    "cluster failover followed: acquire {0} ms after the master kill",
                    followMs);
            RedisServer promoted = cluster.get().nodeForSlot(ClusterSetup.slotOf("dlock:{" + name + "}"));
            assertThat(promoted).isNotSameAs(master);
            assertThat(promoted.command("EXISTS", "dlock:{" + name + "}")).isEqualTo(1L);
            // The waiter's client learns of the failover on its own first attempts (adaptive refresh).
            CompletableFuture<Lease> woken = queueWithin(waiter, name, promoted, Duration.ofSeconds(20));
            after.release();
            woken.get(Timing.scaled(Duration.ofSeconds(15)).toMillis(), TimeUnit.MILLISECONDS)
                    .release();
        }
    }

    /** A CLIENT LIST line of a client with a classic or a sharded subscription. */
    private static final java.util.regex.Pattern SUBSCRIBED = java.util.regex.Pattern.compile(" s?sub=[1-9]");

    /** The node holding the only client with a subscription (the waiter's pub/sub connection). */
    private static RedisServer subscribedNode() {
        for (RedisServer node : cluster.get().nodes()) {
            for (String line : String.valueOf(node.command("CLIENT", "LIST", "TYPE", "pubsub"))
                    .split("\n")) {
                if (SUBSCRIBED.matcher(line).find()) {
                    return node;
                }
            }
        }
        throw new AssertionError("no node has a subscribed client");
    }

    /** A lock name whose slot the master owns. */
    private static String nameOn(RedisServer master) {
        for (int i = 0; ; i++) {
            String name = "failing-" + i;
            if (cluster.get().nodeForSlot(ClusterSetup.slotOf("dlock:{" + name + "}")) == master) {
                return name;
            }
        }
    }

    /** Starts an acquire that queues behind the holder, retrying while the client follows a failover. */
    private static CompletableFuture<Lease> queueWithin(
            LockClient waiter, String name, RedisServer master, Duration limit) throws InterruptedException {
        long until = System.nanoTime() + Timing.scaled(limit).toNanos();
        while (System.nanoTime() < until) {
            CompletableFuture<Lease> waiting = waiter.lock(name).acquireAsync(Timing.scaled(Duration.ofSeconds(15)));
            while (!waiting.isDone()) {
                if (Long.valueOf(1).equals(master.command("ZCARD", "dlock:{" + name + "}:q"))) {
                    return waiting;
                }
                Thread.sleep(5);
            }
            assertThat(waiting).isCompletedExceptionally(); // the lock is held: no grant without a release
        }
        throw new AssertionError("the waiter did not queue for " + name + " within " + limit);
    }
}
