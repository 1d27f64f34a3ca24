package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.script.SemaphoreKeys;
import dev.dlock.internal.testing.ScriptCommand;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.spi.Script;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.RedisServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pins the names and messages the scripts write to those the Java side reads, on a real server: the
 * channel a hand-off is published on (built in Lua by {@code channel_of}) is the one {@link
 * QueuedAcquisition} subscribes to (built from {@link LockKeys}), the grant message has the shape {@link
 * WaitRoom} parses, and the admin scan finds the lock by the key {@link LockKeys} names. A change on
 * one side only fails here, not in a hand-off that silently never arrives.
 */
final class ScriptFormatsIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    @Test
    void aHandOff_isPublishedOnTheWaitersJavaChannel_inTheShapeTheWaitRoomParses() throws IOException {
        handOff("SUBSCRIBE", "message", false);
    }

    @Test
    void aShardedHandOff_isPublishedWithSpublish_onTheSameChannel() throws IOException {
        Assumptions.assumeTrue(
                Integer.parseInt(redis.server().version().split("\\.")[0]) >= 7,
                "sharded pub/sub needs Redis 7.0; this server is "
                        + redis.server().version());
        assertThat(Scripts.sharded(Scripts.RELEASE).source())
                .contains("SPUBLISH")
                .doesNotContain("redis.call('PUBLISH'");
        assertThat(Scripts.sharded(Scripts.RENEW)).as("publishes nothing").isSameAs(Scripts.RENEW);
        handOff("SSUBSCRIBE", "smessage", true);
    }

    private void handOff(String subscribe, String push, boolean sharded) throws IOException {
        for (String name : new String[] {"plain", "}brace", "a:b{c}"}) {
            RedisServer server = redis.server();
            LockKeys keys = LockKeys.of("dlock", name);
            String holder = UUID.randomUUID() + ":thread-1";
            String waiterClient = UUID.randomUUID().toString();
            String waiter = waiterClient + ":lease-7";
            String channel = keys.channel() + ':' + waiterClient; // as QueuedAcquisition.channel()
            Script release = sharded ? Scripts.sharded(Scripts.RELEASE) : Scripts.RELEASE;
            try (Subscriber sub = new Subscriber(server, subscribe, channel)) {
                assertThat((Long) eval(server, Scripts.ACQUIRE, keys, holder, "30000", "0", "5000"))
                        .as("taken")
                        .isGreaterThan(0L);
                assertThat((Long) eval(server, Scripts.ACQUIRE, keys, waiter, "30000", "1", "5000", "w1"))
                        .as("busy: queued")
                        .isLessThan(0L);
                assertThat(eval(server, release, keys, holder))
                        .as("released and handed over")
                        .isEqualTo(2L);

                List<String> message = sub.next();
                assertThat(message.get(0)).isEqualTo(push);
                assertThat(message.get(1)).as("channel of %s", name).isEqualTo(channel);
                String token = server.command("HGET", keys.lock(), "token").toString();
                assertThat(message.get(2)).isEqualTo("g " + token + " w1 " + waiter);
                assertThat(server.command("HGET", keys.lock(), "owner")).isEqualTo(waiter);
            }
        }
    }

    @Test
    void aSemaphoreGrant_isPublishedOnTheWaitersJavaChannel_inTheShapeTheWaitRoomParses() throws IOException {
        for (String name : new String[] {"sem", "}sem"}) {
            RedisServer server = redis.server();
            SemaphoreKeys keys = SemaphoreKeys.of("dlock", name);
            String holder = UUID.randomUUID() + ":lease-1";
            String waiterClient = UUID.randomUUID().toString();
            String waiter = waiterClient + ":lease-7";
            String channel = keys.lock().channel() + ':' + waiterClient; // as QueuedAcquisition.channel()
            try (Subscriber sub = new Subscriber(server, "SUBSCRIBE", channel)) {
                String[] keyArray = keys.scriptKeys();
                assertThat((Long) eval(
                                server,
                                Scripts.SEMAPHORE_ACQUIRE,
                                keyArray,
                                holder,
                                "30000",
                                "0",
                                "5000",
                                "-",
                                "2",
                                "2"))
                        .as("two permits taken")
                        .isGreaterThan(0L);
                assertThat((Long) eval(
                                server,
                                Scripts.SEMAPHORE_ACQUIRE,
                                keyArray,
                                waiter,
                                "30000",
                                "1",
                                "5000",
                                "w1",
                                "1",
                                "2"))
                        .as("busy: queued")
                        .isLessThan(0L);
                assertThat(eval(server, Scripts.SEMAPHORE_RELEASE, keyArray, holder))
                        .as("released and granted")
                        .isEqualTo(2L);

                List<String> message = sub.next();
                assertThat(message.get(1)).as("channel of %s", name).isEqualTo(channel);
                String token =
                        server.command("HGET", keys.holds(), waiter).toString().split(" ")[1];
                assertThat(message.get(2)).isEqualTo("g " + token + " w1 " + waiter);
            }
        }
    }

    @Test
    void theAdminScan_findsEveryLockByItsJavaKey() {
        RedisServer server = redis.server();
        for (String name : new String[] {"scan-plain", "}scan"}) {
            LockKeys keys = LockKeys.of("fmt", name);
            eval(server, Scripts.ACQUIRE, keys, UUID.randomUUID() + ":thread-1", "30000", "0", "5000");
            RedisLockAdmin admin = new RedisLockAdmin(null, "fmt", 512, new Lifecycle("redis://test"));
            assertThat(admin.keyBeside(name, "x")).isEqualTo(keys.lock() + ":x");
            Object page = server.command("EVAL", RedisLockAdmin.SCAN.source(), "0", "0", "fmt:[{^]*}", "1000");
            List<String> found = new ArrayList<>();
            for (Object entry : ((List<?>) page).subList(1, ((List<?>) page).size())) {
                found.add(LockKeys.nameOf("fmt", (String) ((List<?>) entry).get(0)));
            }
            assertThat(found).as("names the scan found").contains(name);
        }
    }

    private static Object eval(RedisServer server, Script script, LockKeys keys, String... args) {
        return eval(server, script, keys.scriptKeys(), args);
    }

    private static Object eval(RedisServer server, Script script, String[] keys, String... args) {
        return server.command(ScriptCommand.of("EVAL", script.source(), keys, args));
    }

    /** A bare RESP2 subscriber on one channel: reads the pushes the server sends it, as lines. */
    private static final class Subscriber implements AutoCloseable {
        private final Socket socket;
        private final BufferedReader in;

        Subscriber(RedisServer server, String command, String channel) throws IOException {
            socket = new Socket(server.host(), server.port());
            socket.setSoTimeout(10_000);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            byte[] name = channel.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("*2\r\n$" + command.length() + "\r\n" + command + "\r\n$" + name.length + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(name);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(next())
                    .as("subscribe confirmation")
                    .startsWith(command.toLowerCase(java.util.Locale.ROOT), channel);
        }

        /** The next push: its bulk strings and integers, in order. */
        List<String> next() throws IOException {
            String header = in.readLine();
            assertThat(header).startsWith("*");
            int n = Integer.parseInt(header.substring(1));
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String line = in.readLine();
                parts.add(line.startsWith("$") ? in.readLine() : line.substring(1));
            }
            return parts;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
