package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * The single server's replica: its writes applied in order after a lag, expiry as a replica and as a promoted master,
 * and {@code WAIT} after a script on one connection (answered when the replica has the script, or at its timeout with
 * 0, the connection blocked meanwhile); and which records a promotion takes away.
 */
final class SimReplicaTest {
    private static final long MS = 1_000_000;
    private static final long EPOCH = 1_800_000_000_000L;
    private static final Script INCR = Script.of("incr", "return redis.call('INCR', KEYS[1])", Script.Reply.INTEGER);
    private static final Script GET = Script.of("get", "return redis.call('GET', KEYS[1])", Script.Reply.INTEGER);
    private static final ReplicaAck ACK = new ReplicaAck(1, Duration.ofMillis(100), false);

    private final EventLoop loop = new EventLoop();
    private final SimRedis master = new SimRedis(() -> EPOCH + loop.now() / MS);
    private final SimReplica replica = new SimReplica(loop, master, new SplittableRandom(7), 1000);

    /** A network to the master of 0.1 ms each way, on the test's loop. */
    private LoopNetwork network() {
        return new LoopNetwork(
                loop,
                new SplittableRandom(3),
                LoopNetwork.Delays.between(100_000, 100_000),
                LoopNetwork.Delays.between(100_000, 100_000));
    }

    private SimTransport transport() {
        return new SimTransport(master, network(), false, loop, Duration.ofSeconds(2));
    }

    @Test
    void writes_reachTheReplica_inOrder_afterTheirLag() {
        master.call("SET", "k", "1");
        master.call("SET", "k", "2");
        master.call("HSET", "h", "f", "x");
        assertThat(replica.shipped()).isEqualTo(3);
        assertThat(replica.data().call("GET", "k")).as("not yet: its lag").isNull();
        long firstAt = replica.appliedAt(1);
        long lastAt = replica.appliedAt(3);
        assertThat(firstAt).isGreaterThan(0).isLessThanOrEqualTo(lastAt).isLessThanOrEqualTo(2 * 3 * MS);
        loop.runFor(firstAt);
        assertThat(replica.applied()).isGreaterThanOrEqualTo(1);
        loop.runFor(lastAt - loop.now());
        assertThat(replica.applied()).isEqualTo(3);
        assertThat(replica.data().call("GET", "k")).isEqualTo("2");
        assertThat(replica.data().call("HGET", "h", "f")).isEqualTo("x");
        master.call("GET", "k");
        assertThat(replica.shipped()).as("a read ships nothing").isEqualTo(3);
    }

    @Test
    void aHeldBackReplica_appliesLater_inOrder() {
        replica.holdBack(500 * MS);
        master.call("SET", "k", "1");
        master.call("DEL", "k");
        assertThat(replica.appliedAt(1)).isGreaterThanOrEqualTo(500 * MS);
        assertThat(replica.appliedAt(2)).isGreaterThanOrEqualTo(replica.appliedAt(1));
        loop.runFor(499 * MS);
        assertThat(replica.applied()).isZero();
        loop.runFor(10 * MS);
        assertThat(replica.applied()).isEqualTo(2);
        assertThat(replica.data().call("EXISTS", "k")).isEqualTo(0L);
    }

    @Test
    void anExpiry_isAbsolute_theReplicaReadsNothingPastIt_andThePromotedServerExpiresByItsOwnClock() {
        master.call("SET", "short", "v", "PX", "100");
        master.call("SET", "long", "v", "PX", "1000");
        loop.runFor(50 * MS);
        assertThat(replica.data().call("PTTL", "short"))
                .as("absolute: 100 ms from the master's write")
                .isEqualTo(50L);
        loop.runFor(60 * MS);
        assertThat(replica.data().call("GET", "short"))
                .as("a replica's read past its time")
                .isNull();
        assertThat(master.call("GET", "short")).isNull();
        SimRedis promoted = replica.detach();
        master.restartWith(promoted);
        assertThat(master.call("GET", "long")).isEqualTo("v");
        assertThat(master.call("PTTL", "long")).isEqualTo(890L);
        loop.runFor(900 * MS);
        assertThat(master.call("GET", "long"))
                .as("expired by the promoted server's clock")
                .isNull();
    }

    @Test
    void aPromotion_bringsWhatTheReplicaApplied_andNothingElse() {
        master.call("SET", "applied", "1");
        loop.runFor(10 * MS);
        replica.holdBack(1000 * MS);
        master.call("SET", "lost", "1");
        loop.runFor(10 * MS);
        master.restartWith(replica.detach());
        assertThat(master.call("GET", "applied")).isEqualTo("1");
        assertThat(master.call("GET", "lost")).isNull();
        master.call("SET", "after", "1");
        loop.runFor(10 * MS);
        assertThat(replica.data().call("GET", "after"))
                .as("detached: fed nothing")
                .isNull();
        replica.sync();
        assertThat(replica.data().call("GET", "after")).as("a full sync").isEqualTo("1");
    }

    @Test
    void wait_answersOnceTheReplicaHasTheScript_withOne() throws Exception {
        CompletableFuture<Replicated> r = transport().evalReplicated(INCR, new String[] {"n"}, new String[0], ACK);
        loop.runFor(5 * MS);
        assertThat(r).isCompleted();
        assertThat(r.get()).isEqualTo(new Replicated(1L, 1));
        assertThat(replica.data().call("GET", "n")).isEqualTo("1");
    }

    @Test
    void wait_answersAtItsTimeout_withZero_whenTheReplicaIsHeldBack_andBlocksItsConnectionMeanwhile() throws Exception {
        SimTransport transport = transport();
        replica.holdBack(1000 * MS);
        CompletableFuture<Replicated> r = transport.evalReplicated(INCR, new String[] {"n"}, new String[0], ACK);
        CompletableFuture<Object> behind = transport.eval(GET, new String[] {"n"}, new String[0]);
        loop.runFor(99 * MS);
        assertThat(r).as("the WAIT blocks").isNotDone();
        assertThat(behind).as("a command behind a WAIT waits for it").isNotDone();
        loop.runFor(2 * MS);
        assertThat(r.get()).isEqualTo(new Replicated(1L, 0));
        assertThat(behind.get()).isEqualTo("1");
        assertThat(replica.data().call("GET", "n")).as("still held back").isNull();
    }

    @Test
    void wait_withoutAReplica_answersZeroAtItsTimeout_andWaitaofIsRefusedAsBy70() throws Exception {
        replica.detach();
        SimTransport transport = transport();
        CompletableFuture<Replicated> r = transport.evalReplicated(INCR, new String[] {"n"}, new String[0], ACK);
        loop.runFor(50 * MS);
        assertThat(r).isNotDone();
        loop.runFor(60 * MS);
        assertThat(r.get()).isEqualTo(new Replicated(1L, 0));
        CompletableFuture<Replicated> aof = transport.evalReplicated(
                INCR, new String[] {"n"}, new String[0], new ReplicaAck(1, Duration.ofMillis(100), true));
        loop.runFor(5 * MS);
        assertThatThrownBy(aof::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(RedisReplyException.class)
                .hasMessageContaining("WAITAOF");
        assertThat(master.call("GET", "n")).as("the script ran").isEqualTo("2");
    }

    @Test
    void aPairWhoseConnectionIsLostBeforeItsWaitAnswers_fails() {
        replica.holdBack(1000 * MS);
        LoopNetwork network = network();
        SimTransport transport = new SimTransport(master, network, false, loop, Duration.ofSeconds(2));
        CompletableFuture<Replicated> r = transport.evalReplicated(INCR, new String[] {"n"}, new String[0], ACK);
        loop.runFor(10 * MS);
        network.drop(SimNetwork.Link.COMMANDS, 0);
        loop.runFor(200 * MS);
        assertThatThrownBy(r::get).cause().isInstanceOf(LockConnectionException.class);
    }

    @Test
    void aLettucePairWhoseConnectionIsLost_runsAgainOnTheNextOne_andStillFails() {
        replica.holdBack(1000 * MS);
        LoopNetwork network = network();
        SimTransport transport =
                new SimTransport(master, network, false, loop, Duration.ofSeconds(2), SimTransport.Reconnects.LETTUCE);
        CompletableFuture<Replicated> r = transport.evalReplicated(INCR, new String[] {"n"}, new String[0], ACK);
        loop.runFor(10 * MS);
        network.drop(SimNetwork.Link.COMMANDS, 0);
        loop.runFor(300 * MS);
        assertThat(master.call("GET", "n")).as("at least once: it ran again").isEqualTo("2");
        assertThatThrownBy(r::get).cause().isInstanceOf(LockConnectionException.class);
    }

    @Test
    void aPromotion_takesAwayTheRecordsTheReplicaLacksOrHasShorter() {
        long token = 5_000;
        master.call("HSET", "dlock:{kept}", "owner", "a", "token", "100");
        master.call("PEXPIRE", "dlock:{kept}", "1000");
        master.call("HSET", "dlock:{shorter}", "owner", "b", "token", "200");
        master.call("PEXPIRE", "dlock:{shorter}", "1000");
        long expiry = EPOCH + 1000;
        master.call("HSET", "dlock:{p}:holds", "o1", "1 300 " + expiry, "o2", "1 301 " + expiry);
        master.call("PEXPIRE", "dlock:{p}:holds", "1000");
        loop.runFor(10 * MS);
        replica.holdBack(1000 * MS);
        master.call("PEXPIRE", "dlock:{shorter}", "2000"); // a renewal the replica has not got
        master.call("HSET", "dlock:{p}:holds", "o2", "1 301 " + (expiry + 1000));
        master.call("PEXPIRE", "dlock:{p}:holds", "2000");
        master.call("HSET", "dlock:{new}", "owner", "c", "token", Long.toString(token));
        Map<String, Set<Long>> lost = Promotions.lostRecords(master, replica.detach());
        assertThat(lost).containsOnlyKeys("shorter", "p", "new");
        assertThat(lost.get("shorter")).hasSize(HoldBook.RELAY_BLOCK).contains(200L, 215L);
        assertThat(lost.get("p")).containsExactly(301L);
        assertThat(lost.get("new")).contains(token);
    }
}
