package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.spi.Transport;
import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Pub/sub while Redis refuses {@code SUBSCRIBE} ({@code ACL SETUSER default -subscribe}) and the pub/sub connection is
 * killed, as dlock-verify's server-errors scenario does: the reconnect's restoring subscribe is refused, and once Redis
 * allows it again the transport must subscribe as before.
 */
final class RespSubscribeRefusedIT {
    private static final Duration TIMEOUT = Duration.ofMillis(500);

    /**
     * Redis answers a refused {@code SUBSCRIBE a b c} with one error, not one per channel. Restoring every channel in
     * one command then left the other channels' confirmations expected for good, and every later subscribe was matched
     * to the confirmation of the one before it: the first one after the fault got none and timed out.
     */
    @Test
    void restoreRefused_withSeveralChannels_aLaterSubscribeIsConfirmed() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                Transport transport = new RespTransportFactory().connect(Scripts.config(server.uri(), TIMEOUT))) {
            BlockingQueue<String> received = new LinkedBlockingQueue<>();
            transport.onMessage((channel, message) -> received.add(channel + "=" + message));
            for (String channel : List.of("a", "b", "c")) {
                transport.subscribe(channel).get(2, TimeUnit.SECONDS);
            }
            refuseSubscribeAcrossAReconnect(server);

            CompletableFuture<Void> later = transport.subscribe("d");
            assertThat(later).succeedsWithin(Duration.ofSeconds(2));
            assertThat(server.command("PUBLISH", "d", "after")).isEqualTo(1L);
            assertThat(received.poll(2, TimeUnit.SECONDS)).isEqualTo("d=after");
        }
    }

    /**
     * The channels wanted when the restore was refused were subscribed before the connection was lost, so nobody
     * subscribes to them anew: the transport must itself, once Redis allows it, or their wake-ups are lost unnoticed.
     */
    @Test
    void restoreRefused_theWantedChannelsAreSubscribedAgainOnceAllowed() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                Transport transport = new RespTransportFactory().connect(Scripts.config(server.uri(), TIMEOUT))) {
            BlockingQueue<String> received = new LinkedBlockingQueue<>();
            transport.onMessage((channel, message) -> received.add(channel + "=" + message));
            for (String channel : List.of("a", "b", "c")) {
                transport.subscribe(channel).get(2, TimeUnit.SECONDS);
            }
            refuseSubscribeAcrossAReconnect(server);

            for (String channel : List.of("a", "b", "c")) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!subscribed(server, channel)) {
                    assertThat(System.nanoTime() - deadline)
                            .as("%s subscribed again within 5 s", channel)
                            .isNegative();
                    Thread.sleep(5);
                }
                assertThat(server.command("PUBLISH", channel, "after")).isEqualTo(1L);
                assertThat(received.poll(2, TimeUnit.SECONDS)).isEqualTo(channel + "=after");
            }
        }
    }

    private static boolean subscribed(RedisServer server, String channel) {
        List<?> reply = (List<?>) server.command("PUBSUB", "NUMSUB", channel);
        return ((Long) reply.get(1)) > 0;
    }

    /** Refuses SUBSCRIBE, kills the pub/sub connection, waits until its reconnect's SUBSCRIBE was refused, heals. */
    private static void refuseSubscribeAcrossAReconnect(RedisServer server) throws InterruptedException {
        server.command("ACL", "LOG", "RESET");
        server.command("ACL", "SETUSER", "default", "-subscribe");
        try {
            assertThat(server.command("CLIENT", "KILL", "TYPE", "pubsub")).isEqualTo(1L);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!subscribeRefused(server)) {
                assertThat(System.nanoTime() - deadline)
                        .as("the reconnect's SUBSCRIBE was refused within 5 s")
                        .isNegative();
                Thread.sleep(5);
            }
        } finally {
            server.command("ACL", "SETUSER", "default", "+subscribe");
        }
    }

    /** Whether the ACL log holds a refused {@code SUBSCRIBE}: each entry is a flat list of field names and values. */
    private static boolean subscribeRefused(RedisServer server) {
        for (Object entry : (List<?>) server.command("ACL", "LOG")) {
            List<?> fields = (List<?>) entry;
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                if ("object".equals(fields.get(i)) && "subscribe".equals(fields.get(i + 1))) {
                    return true;
                }
            }
        }
        return false;
    }
}
