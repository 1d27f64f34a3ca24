package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockServerException;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Transport;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The script and its {@code WAIT} on one connection, on a plain {@code redis://} master with one
 * replica started by hand ({@code --replicaof}): the count, the pair resent after {@code NOSCRIPT},
 * a connection lost between the script and the wait's reply, and {@code WAITAOF} on a server that
 * lacks it.
 */
final class RespWaitIT {
    private static final String[] NO_ARGS = {};
    private static final ReplicaAck ONE = new ReplicaAck(1, Duration.ofMillis(300), false);

    private RedisServer master;
    private RedisServer replica;
    private Transport transport;

    @BeforeEach
    void start() throws Exception {
        master = RedisServer.builder()
                .extraArgs("--repl-diskless-sync-delay", "0") // sync the replica at once, not after 5 s
                .start();
        replica = RedisServer.builder()
                .extraArgs("--replicaof", "127.0.0.1", Integer.toString(master.port()))
                .start();
        long deadline =
                System.nanoTime() + Timing.scaled(Duration.ofSeconds(10)).toNanos();
        // Online on the master's side too: with a diskless sync the master counts the replica in WAIT only
        // once its first REPLCONF ACK has come, up to a second after the replica's link is up.
        while (!String.valueOf(replica.command("INFO", "replication")).contains("master_link_status:up")
                || !String.valueOf(master.command("INFO", "replication")).contains("state=online")) {
            assertThat(System.nanoTime() - deadline).as("replica link up").isNegative();
            Thread.sleep(20);
        }
        Scripts.awaitReplicasAcknowledging(master, 1);
        transport = new RespTransportFactory().connect(Scripts.config(master.uri(), Duration.ofSeconds(2)));
    }

    @AfterEach
    void stop() {
        transport.close();
        replica.close();
        master.close();
    }

    private Replicated incr(String key, ReplicaAck ack) throws Exception {
        return transport
                .evalReplicated(Scripts.INCR, new String[] {key}, NO_ARGS, ack)
                .get(5, TimeUnit.SECONDS);
    }

    @Test
    void evalReplicated_countsTheReplicaThatHasTheWrite() throws Exception {
        assertThat(transport.waitsForReplicas()).isTrue();
        Replicated r = incr("k", ONE);
        assertThat(r.reply()).isEqualTo(1L);
        assertThat(r.acknowledged()).isEqualTo(1);
        assertThat(replica.command("GET", "k")).isEqualTo("1");
    }

    @Test
    void evalReplicated_replicaPaused_countsNone_afterTheAckTimeout() throws Exception {
        replica.pause();
        try {
            long start = System.nanoTime();
            Replicated r = incr("k", ONE);
            assertThat(r.reply()).isEqualTo(1L);
            assertThat(r.acknowledged()).isZero();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(290);
        } finally {
            replica.resume();
        }
    }

    @Test
    void noscript_resendsTheScriptWithItsWait_asAPair() throws Exception {
        incr("k", ONE); // loaded: the next goes by SHA
        master.command("SCRIPT", "FLUSH");
        master.command("CONFIG", "RESETSTAT");
        Replicated r = incr("k", ONE);
        assertThat(r.reply()).isEqualTo(2L);
        assertThat(r.acknowledged()).isEqualTo(1);
        assertThat(Scripts.calls(master, "evalsha")).isEqualTo(1); // answered NOSCRIPT
        assertThat(Scripts.calls(master, "eval")).isEqualTo(1); // the resend, with the source
        assertThat(String.valueOf(master.command("INFO", "commandstats")))
                .containsPattern("cmdstat_wait:calls=2,"); // one behind each
    }

    @Test
    void connectionKilledBetweenScriptAndWait_failsWithConnectionError_notAnAcknowledgement() throws Exception {
        replica.pause(); // the WAIT blocks: the replica acknowledges nothing
        try {
            CompletableFuture<Replicated> pair = transport.evalReplicated(
                    Scripts.INCR, new String[] {"k"}, NO_ARGS, new ReplicaAck(1, Duration.ofSeconds(10), false));
            String id = blockedInWait();
            assertThat(master.command("GET", "k")).as("the script ran").isEqualTo("1");
            master.command("CLIENT", "KILL", "ID", id);
            assertThatThrownBy(() -> pair.get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(LockConnectionException.class)
                    .hasMessageContaining("lost the connection");
        } finally {
            replica.resume();
        }
        // The transport reconnects; the next pair runs on the new connection and is counted there.
        // (The replica, just resumed, catches up first: wait for it longer than for the others.)
        Replicated next = incr("k", new ReplicaAck(1, Duration.ofSeconds(4), false));
        assertThat(next.reply()).isEqualTo(2L);
        assertThat(next.acknowledged()).isEqualTo(1);
    }

    /** The id of the transport's connection once it blocks in {@code WAIT}. */
    private String blockedInWait() throws InterruptedException {
        long deadline = System.nanoTime() + Timing.scaled(Duration.ofSeconds(5)).toNanos();
        while (true) {
            for (String line : String.valueOf(master.command("CLIENT", "LIST", "TYPE", "normal"))
                    .split("\n")) {
                if (line.contains(" name=dlock-resp-test ") && line.contains(" cmd=wait ")) {
                    return line.substring(3, line.indexOf(' '));
                }
            }
            assertThat(System.nanoTime() - deadline).as("the WAIT to block").isNegative();
            Thread.sleep(10);
        }
    }

    @Test
    void waitaof_onAServerBefore72_failsClearly() throws Exception {
        ReplicaAck fsync = new ReplicaAck(1, Duration.ofMillis(300), true);
        if (olderThan72(master.version())) {
            assertThatThrownBy(() -> incr("k", fsync))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(RedisReplyException.class)
                    .hasMessageContaining("replicaAckFsync needs WAITAOF, which Redis has only since 7.2");
        } else {
            assertThat(incr("k", fsync).reply()).isEqualTo(1L); // replicas without AOF count 0
        }
    }

    @Test
    void client_replicaAcks1_onAPlainMasterWithAReplica_acquires() {
        try (LockClient client = LockClient.builder()
                .redisUri(master.uri())
                .transport(new RespTransportFactory())
                .keyPrefix("t")
                .replicaAcks(1)
                .build()) {
            try (Lease lease = client.lock("a").acquire()) {
                assertThat(replica.command("HGET", "t:{a}", "token")).isEqualTo(Long.toString(lease.fencingToken()));
            }
            assertThat(master.command("EXISTS", "t:{a}")).isEqualTo(0L);
        }
    }

    @Test
    void client_replicaAckFsync_onAServerBefore72_failsWithLockServerException() {
        if (!olderThan72(master.version())) {
            return; // 7.2 and newer have WAITAOF
        }
        try (LockClient client = LockClient.builder()
                .redisUri(master.uri())
                .transport(new RespTransportFactory())
                .keyPrefix("t")
                .replicaAcks(1)
                .replicaAckFsync(true)
                .build()) {
            assertThatThrownBy(() -> client.lock("a").tryAcquire(Duration.ZERO))
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("WAITAOF")
                    .hasMessageContaining("7.2");
        }
    }

    private static boolean olderThan72(String version) {
        String[] parts = version.split("\\.");
        int major = Integer.parseInt(parts[0]);
        int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
        return major < 7 || (major == 7 && minor < 2);
    }
}
