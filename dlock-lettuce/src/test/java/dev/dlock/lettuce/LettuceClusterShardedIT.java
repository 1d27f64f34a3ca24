package dev.dlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.testkit.ClusterSetup;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sharded pub/sub on a Redis 7 cluster of three masters with a replica each: hand-off messages go
 * through {@code SPUBLISH} to a subscription on the lock's own shard, the subscription follows its slot
 * to a new owner (resharding) and to a promoted replica (a killed master), and a replicated acquire
 * answered {@code MOVED} or {@code ASK} during a migration succeeds on the new owner or fails typed,
 * never half-written. The failover runs last, as the topology is shared.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@SuppressWarnings("unchecked")
final class LettuceClusterShardedIT {
    private static final System.Logger LOG = System.getLogger(LettuceClusterShardedIT.class.getName());
    private static final Pattern CALLS = Pattern.compile("cmdstat_(s?publish):calls=(\\d+)");

    @RegisterExtension
    static final TopologyExtension<ClusterSetup> cluster =
            ClusterSetup.builder().masters(3).replicasPerMaster(1).extension();

    private static LockClient client() {
        return LockClient.builder()
                .redisUri(cluster.get().seedUri())
                .transport(new LettuceTransportFactory())
                .commandTimeout(Timing.scaled(Duration.ofSeconds(1)))
                .build();
    }

    private static LockClient ackingClient() {
        return LockClient.builder()
                .redisUri(cluster.get().seedUri())
                .transport(new LettuceTransportFactory())
                .commandTimeout(Timing.scaled(Duration.ofSeconds(1)))
                .replicaAcks(1)
                .replicaAckTimeout(Timing.scaled(Duration.ofSeconds(2)))
                .build();
    }

    private static int slot(String name) {
        return ClusterSetup.slotOf("dlock:{" + name + "}");
    }

    private static RedisServer otherMaster(RedisServer than) {
        return cluster.get().masters().stream()
                .filter(m -> m != than)
                .findFirst()
                .orElseThrow();
    }

    @Test
    @Order(1)
    void aRedis7Cluster_isSubscribedSharded_andHandOffsPublishWithSpublishOnTheLocksShard() throws Exception {
        try (Transport transport = new LettuceTransportFactory()
                .connect(TransportConfig.of(cluster.get().seedUri(), Duration.ofSeconds(2), "probe"))) {
            assertThat(transport.shardedPubSub()).isTrue();
        }
        cluster.get().nodes().forEach(node -> node.command("CONFIG", "RESETSTAT"));
        try (LockClient holder = client();
                LockClient waiter = client()) {
            Lease held = holder.lock("sh").acquire();
            CompletableFuture<Lease> waiting = waiter.lock("sh").acquireAsync(Timing.scaled(Duration.ofSeconds(10)));
            RedisServer owner = cluster.get().nodeForSlot(slot("sh"));
            Failovers.awaitQueued(owner, "sh", waiting);
            String channel = "dlock:{sh}:wake:" + waiter.clientId();
            assertThat((List<Object>) owner.command("PUBSUB", "SHARDCHANNELS")).containsExactly(channel);
            for (RedisServer node : cluster.get().nodes()) {
                assertThat((List<Object>) node.command("PUBSUB", "CHANNELS"))
                        .as("classic channels on %s", node)
                        .isEmpty();
            }
            held.release();
            waiting.get(Timing.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)
                    .release();
            assertThat(calls(owner, "spublish"))
                    .as("SPUBLISH on the lock's master")
                    .isGreaterThanOrEqualTo(1);
            for (RedisServer node : cluster.get().nodes()) {
                assertThat(calls(node, "publish")).as("PUBLISH on %s", node).isZero();
            }
        }
    }

    /**
     * The waiter's subscription is renewed on the slot's new owner (which the old owner's {@code
     * sunsubscribe} announces), and the release after the move hands the lock over by a message there.
     */
    @Test
    @Order(2)
    void aWaitersSubscriptionFollowsItsSlotToTheNewOwner_andTheHandOffArrives() throws Exception {
        try (LockClient holder = client();
                LockClient waiter = client()) {
            Lease held = holder.lock("mig").acquire();
            CompletableFuture<Lease> waiting = waiter.lock("mig").acquireAsync(Timing.scaled(Duration.ofSeconds(30)));
            RedisServer from = cluster.get().nodeForSlot(slot("mig"));
            Failovers.awaitQueued(from, "mig", waiting);
            String channel = "dlock:{mig}:wake:" + waiter.clientId();
            assertThat(shardSubscribers(from, channel)).isEqualTo(1);
            RedisServer to = otherMaster(from);
            long start = System.nanoTime();
            cluster.get().migrateSlot(slot("mig"), from, to);
            awaitShardSubscribed(to, channel, Duration.ofSeconds(10));
            LOG.log(
                    System.Logger.Level.INFO,
                    "sharded subscription renewed on the new owner {0} ms after the migration began",
                    (System.nanoTime() - start) / 1_000_000);
            assertThat(shardSubscribers(from, channel)).isZero();
            long before = calls(to, "spublish");
            held.release();
            Lease next = waiting.get(Timing.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            assertThat(calls(to, "spublish"))
                    .as("the hand-off published on the new owner")
                    .isGreaterThan(before);
            next.release();
        }
    }

    /** MOVED: the script did not run on the old owner, so the call is sent once more, to the new one. */
    @Test
    @Order(3)
    void aReplicatedAcquireAnsweredMoved_succeedsOnTheNewOwnerWithItsReplicasAck() throws Exception {
        try (LockClient acked = ackingClient()) {
            acked.lock("rmove").acquire().release(); // the client knows the slot's owner and is connected
            RedisServer from = cluster.get().nodeForSlot(slot("rmove"));
            RedisServer to = otherMaster(from);
            long movedBefore = errors(from, "MOVED");
            cluster.get().migrateSlot(slot("rmove"), from, to);
            Lease lease = acked.lock("rmove").acquire();
            assertThat(errors(from, "MOVED")).as("the old owner answered MOVED").isGreaterThan(movedBefore);
            // acquired with replicaAcks(1): the new owner's replica acknowledged it (else LockReplicationException)
            assertThat(to.command("HGET", "dlock:{rmove}", "owner")).isNotNull();
            lease.release();
            assertThat(to.command("EXISTS", "dlock:{rmove}")).isEqualTo(0L);
        }
    }

    /**
     * During a migration the old owner answers a script whose keys are all gone {@code ASK}, and one
     * whose keys are partly there {@code TRYAGAIN}: neither ran, the call fails typed, and neither node
     * holds a lock or queue entry for it.
     */
    @Test
    @Order(4)
    void aReplicatedAcquireAnsweredAskOrTryagain_failsTyped_andWritesNothing() throws Exception {
        String fresh = "rask"; // no key at all: ASK
        String used = otherNameInSlotOf(fresh); // its fencing counter stays behind: TRYAGAIN
        int slot = slot(fresh);
        RedisServer from = cluster.get().nodeForSlot(slot);
        RedisServer to = otherMaster(from);
        try (LockClient acked = ackingClient()) {
            acked.lock(used).acquire().release();
            to.command(
                    "CLUSTER",
                    "SETSLOT",
                    Integer.toString(slot),
                    "IMPORTING",
                    cluster.get().nodeId(from));
            from.command(
                    "CLUSTER",
                    "SETSLOT",
                    Integer.toString(slot),
                    "MIGRATING",
                    cluster.get().nodeId(to));
            try {
                for (String[] nameAndReply : new String[][] {{fresh, "ASK"}, {used, "TRYAGAIN"}}) {
                    String name = nameAndReply[0];
                    assertThatThrownBy(() -> acked.lock(name).acquire())
                            .isInstanceOf(LockConnectionException.class)
                            .hasMessageContaining("slot " + slot + " is moving (" + nameAndReply[1])
                            .hasMessageContaining("the script did not run");
                    for (RedisServer node : List.of(from, to)) {
                        // GETKEYSINSLOT, as a migrating slot's node redirects EXISTS of a missing key
                        assertThat((List<Object>)
                                        node.command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "100"))
                                .as("keys of slot %s on %s", slot, node)
                                .doesNotContain("dlock:{" + name + "}", "dlock:{" + name + "}:q");
                    }
                }
            } finally {
                for (RedisServer node : List.of(from, to)) {
                    node.command("CLUSTER", "SETSLOT", Integer.toString(slot), "STABLE");
                }
            }
            acked.lock(fresh).acquire().release(); // the slot is stable again: the same client acquires
        }
    }

    /** Another lock name whose keys share the slot of {@code name}'s. */
    private static String otherNameInSlotOf(String name) {
        for (int i = 0; ; i++) {
            String other = name + "-" + i;
            if (slot(other) == slot(name)) {
                return other;
            }
        }
    }

    /**
     * Lettuce resubscribes a reconnected node connection's shard channels in one {@code SSUBSCRIBE},
     * which Redis refuses ({@code CROSSSLOT}) when they span slots: the transport renews each one.
     */
    @Test
    @Order(5)
    void subscriptionsInSeveralSlotsOfOneNode_areRenewedAfterItsConnectionIsKilled() throws Exception {
        RedisServer node = cluster.get().nodeForSlot(slot("rc"));
        String other = null;
        for (int i = 0; other == null; i++) {
            String candidate = "rc-" + i;
            if (slot(candidate) != slot("rc") && cluster.get().nodeForSlot(slot(candidate)) == node) {
                other = candidate;
            }
        }
        try (LockClient holder = client();
                LockClient waiter = client()) {
            Lease heldOne = holder.lock("rc").acquire();
            Lease heldTwo = holder.lock(other).acquire();
            CompletableFuture<Lease> one = waiter.lock("rc").acquireAsync(Timing.scaled(Duration.ofSeconds(30)));
            CompletableFuture<Lease> two = waiter.lock(other).acquireAsync(Timing.scaled(Duration.ofSeconds(30)));
            Failovers.awaitQueued(node, "rc", one);
            Failovers.awaitQueued(node, other, two);
            String channelOne = "dlock:{rc}:wake:" + waiter.clientId();
            String channelTwo = "dlock:{" + other + "}:wake:" + waiter.clientId();
            assertThat(shardSubscribers(node, channelOne)).isEqualTo(1);
            assertThat(shardSubscribers(node, channelTwo)).isEqualTo(1);
            assertThat(node.command("CLIENT", "KILL", "TYPE", "pubsub")).isEqualTo(1L);
            awaitShardSubscribed(node, channelOne, Duration.ofSeconds(10));
            awaitShardSubscribed(node, channelTwo, Duration.ofSeconds(10));
            heldOne.release();
            heldTwo.release();
            one.get(Timing.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)
                    .release();
            two.get(Timing.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)
                    .release();
        }
    }

    /**
     * A waiter keeps waiting (a wait whose try times out while the master is gone fails, and the next
     * starts at once, on the subscription the client keeps): its subscription is renewed on the
     * promoted replica, and the release after the failover hands the lock over.
     */
    @Test
    @Order(6)
    void aWaitersSubscriptionMovesToThePromotedReplica_whenItsMasterIsKilled() throws Exception {
        java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        try (LockClient holder = client();
                LockClient waiter = client()) {
            String name = "fo";
            // a fixed lease: no renewal may fail (and lose it) while the master is gone
            Lease held = holder.lock(name)
                    .tryAcquire(Duration.ZERO, Duration.ofSeconds(60))
                    .orElseThrow();
            java.util.concurrent.Future<Long> taken = thread.submit(() -> {
                while (!stop.get()) {
                    try {
                        // 3 s leases: a queue entry left by a wait whose try timed out lives 3 s, and a
                        // lock handed to it expires 3 s later, so neither outlives the test's bound
                        java.util.Optional<Lease> lease =
                                waiter.lock(name).tryAcquire(Duration.ofSeconds(2), Duration.ofSeconds(3));
                        if (lease.isPresent()) {
                            long token = lease.get().fencingToken();
                            lease.get().release();
                            return token;
                        }
                    } catch (LockConnectionException e) {
                        Thread.sleep(20); // the master is gone: wait again on the same subscription
                    }
                }
                return -1L;
            });
            RedisServer master = cluster.get().nodeForSlot(slot(name));
            Failovers.awaitQueued(master, name);
            master.command("WAIT", "1", "2000"); // the hold and the queue are on the replica
            String channel = "dlock:{" + name + "}:wake:" + waiter.clientId();
            assertThat(shardSubscribers(master, channel)).isEqualTo(1);
            long start = System.nanoTime();
            master.kill();
            RedisServer promoted = cluster.get().awaitFailover(master, Timing.scaled(Duration.ofSeconds(30)));
            long failoverMs = (System.nanoTime() - start) / 1_000_000;
            awaitShardSubscribed(promoted, channel, Duration.ofSeconds(20));
            long followMs = (System.nanoTime() - start) / 1_000_000;
            LOG.log(
                    System.Logger.Level.INFO,
                    "cluster failover: replica promoted {0} ms after the master kill, the waiter''s sharded"
                            + " subscription renewed on it after {1} ms",
                    failoverMs,
                    followMs);
            // the holder's client follows the failover before the one release it may send
            Failovers.acquireWithin(holder, otherNameInSlotOf(name), Duration.ofSeconds(30))
                    .release();
            held.release();
            long token = taken.get(Timing.scaled(Duration.ofSeconds(15)).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(token).isGreaterThan(held.fencingToken());
        } finally {
            stop.set(true);
            thread.shutdownNow();
            assertThat(thread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static long shardSubscribers(RedisServer node, String channel) {
        List<?> reply = (List<?>) node.command("PUBSUB", "SHARDNUMSUB", channel);
        return (Long) reply.get(1);
    }

    private static void awaitShardSubscribed(RedisServer node, String channel, Duration limit)
            throws InterruptedException {
        long until = System.nanoTime() + Timing.scaled(limit).toNanos();
        while (shardSubscribers(node, channel) != 1) {
            assertThat(System.nanoTime())
                    .as("%s subscribed to %s within %s", node, channel, limit)
                    .isLessThan(until);
            Thread.sleep(10);
        }
    }

    /** Calls of PUBLISH or SPUBLISH (scripts' included) since the node's last CONFIG RESETSTAT. */
    private static long calls(RedisServer node, String command) {
        Matcher m = CALLS.matcher(String.valueOf(node.command("INFO", "commandstats")));
        while (m.find()) {
            if (m.group(1).equals(command)) {
                return Long.parseLong(m.group(2));
            }
        }
        return 0;
    }

    /** How many error replies of a kind (such as MOVED) the node has sent. */
    private static long errors(RedisServer node, String kind) {
        Matcher m = Pattern.compile("errorstat_" + kind + ":count=(\\d+)")
                .matcher(String.valueOf(node.command("INFO", "errorstats")));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
