package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.Transport;
import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A subscribe whose pub/sub connection is lost again and again after Redis subscribed but before its confirmation
 * reached the client, as under dlock-verify's many-names scenario (a client whose pub/sub replies come 0.6 TTL late,
 * and {@code CLIENT KILL} of the pub/sub connections 0.1 TTL apart). Each reconnect's restoring subscribe carries the
 * one of the connection before. The caller's subscribe must still complete within the command timeout (the SPI's
 * promise): confirmed once a restore is confirmed, failed once the last restore times out. Before, only the restore
 * one level down completed, the caller's subscribe (in no queue, so never timed out) stayed pending for good, and the
 * acquire waiting on it never returned: the {@code lock()} that "did not stop" in many-names.
 */
final class RespRestoreLostIT {

    /** No client id: every pub/sub connection counts as new. */
    private static final long NONE = -1;

    private static final Pattern PUBSUB_CLIENT = Pattern.compile("\\bid=(\\d+)\\b.*\\bsub=(\\d+)\\b");

    @Test
    void subscribe_whoseRestoresWereLost_completesWhenTheLastRestoreIsConfirmed() throws Exception {
        Duration timeout = Duration.ofSeconds(10); // far more than the losses take, so that only a defect fails it
        try (RedisServer server = RedisServer.builder().start();
                HoldingProxy proxy = new HoldingProxy(server.port());
                Transport transport = new RespTransportFactory().connect(Scripts.config(proxy.uri(), timeout))) {
            BlockingQueue<String> received = new LinkedBlockingQueue<>();
            transport.onMessage((channel, message) -> received.add(channel + "=" + message));
            proxy.hold();
            long issued = System.nanoTime();
            CompletableFuture<Void> subscribe = transport.subscribe("a");
            loseConfirmations(server, 2);
            assertThat(subscribe)
                    .as("pending while its confirmations are held back")
                    .isNotDone();

            proxy.release();

            assertThat(subscribe).succeedsWithin(timeout.minusNanos(System.nanoTime() - issued));
            assertThat(server.command("PUBLISH", "a", "after")).isEqualTo(1L);
            assertThat(received.poll(2, TimeUnit.SECONDS)).isEqualTo("a=after");
        }
    }

    @Test
    void subscribe_whoseRestoresWereLost_failsWithinTheCommandTimeoutWhenNoneIsConfirmed() throws Exception {
        Duration timeout = Duration.ofSeconds(3); // more than the losses take, so that none is due before
        try (RedisServer server = RedisServer.builder().start();
                HoldingProxy proxy = new HoldingProxy(server.port());
                Transport transport = new RespTransportFactory().connect(Scripts.config(proxy.uri(), timeout))) {
            proxy.hold();
            CompletableFuture<Void> subscribe = transport.subscribe("a");
            loseConfirmations(server, 2);
            assertThat(subscribe)
                    .as("pending while its confirmations are held back")
                    .isNotDone();

            // due at the command timeout after the call; the transport's timer ticks every 10 ms at most
            assertThat(subscribe)
                    .failsWithin(timeout.plusMillis(500))
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(LockConnectionException.class);
        }
    }

    /**
     * The restores after a reconnect are answered in the order sent, and the timer looks no further than the first one
     * still in time. A restore that carries an earlier subscribe is due when that subscribe is; sent behind one that
     * carries nothing (due a whole command timeout after the reconnect), it was failed only when that one was due, up
     * to a command timeout late.
     */
    @Test
    void subscribe_restoredBehindAnotherChannel_failsWithinItsOwnCommandTimeout() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        try (RedisServer server = RedisServer.builder().start();
                HoldingProxy proxy = new HoldingProxy(server.port());
                Transport transport = new RespTransportFactory().connect(Scripts.config(proxy.uri(), timeout))) {
            transport.subscribe("x").get(2, TimeUnit.SECONDS); // restored first: wanted first
            proxy.hold();
            long issued = System.nanoTime();
            CompletableFuture<Void> subscribe = transport.subscribe("a");
            long first = awaitSubscriber(server, 2, NONE);
            Thread.sleep(timeout.toMillis() / 2); // the reconnect comes half a command timeout after the call
            assertThat(server.command("CLIENT", "KILL", "ID", String.valueOf(first)))
                    .isEqualTo(1L);
            awaitSubscriber(server, 2, first);
            assertThat(subscribe)
                    .as("pending while its confirmations are held back")
                    .isNotDone();

            // due at the command timeout after the call; the timer ticks every 10 ms at most
            long left = timeout.plusMillis(300).toNanos() - (System.nanoTime() - issued);
            assertThat(subscribe)
                    .failsWithin(Duration.ofNanos(Math.max(0, left)))
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(LockConnectionException.class);
        }
    }

    /**
     * {@code times} times: waits until Redis has subscribed the pub/sub connection (its confirmation held back by the
     * proxy), then kills it; the transport reconnects and restores the subscription each time.
     */
    private static void loseConfirmations(RedisServer server, int times) throws InterruptedException {
        long killed = NONE;
        for (int i = 0; i < times; i++) {
            killed = awaitSubscriber(server, 1, killed);
            assertThat(server.command("CLIENT", "KILL", "ID", String.valueOf(killed)))
                    .isEqualTo(1L);
        }
        awaitSubscriber(server, 1, killed);
    }

    /**
     * Waits until a pub/sub connection other than {@code killed} has {@code channels} subscriptions in Redis, and
     * returns its client id. Told apart by id, not by counting subscribers down to 0 and up again: the transport
     * reconnects within milliseconds, so a poll can miss the moment with none.
     */
    private static long awaitSubscriber(RedisServer server, int channels, long killed) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            for (String line : ((String) server.command("CLIENT", "LIST", "TYPE", "pubsub")).split("\n")) {
                Matcher client = PUBSUB_CLIENT.matcher(line);
                if (client.find()
                        && Long.parseLong(client.group(1)) != killed
                        && Integer.parseInt(client.group(2)) == channels) {
                    return Long.parseLong(client.group(1));
                }
            }
            assertThat(System.nanoTime() - deadline)
                    .as("a new pub/sub connection with %d subscription(s) within 5 s", channels)
                    .isNegative();
            Thread.sleep(1);
        }
    }
}
