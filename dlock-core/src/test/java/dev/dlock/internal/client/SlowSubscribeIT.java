package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.internal.testing.SocketTransport;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.testkit.RedisExtension;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A waiter whose subscription to its wake-up channel is slow to be confirmed (a client's first wait opens
 * the pub/sub connection, which a loaded host or a slow network can take seconds over) is not queued yet,
 * so no release can hand it the lock: it must still try at its refresh interval meanwhile, and take the
 * lock once it is free, rather than go silent until the subscription answers (dlock-verify's checker 5
 * saw a first wait refused after 2.5 s while three other clients took the lock eight times). A real
 * server; the subscription here is confirmed only after {@code SUBSCRIBE_DELAY}.
 */
final class SlowSubscribeIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final long LEASE_MS = 1_000; // the waiter refreshes every third: 333 ms
    private static final Duration SUBSCRIBE_DELAY =
            Duration.ofMillis(2_500); // within the 3 s the client allows a subscription

    private Transport holderSocket;
    private Transport waiterSocket;
    private RedisLockClient holder;
    private RedisLockClient waiter;

    @BeforeEach
    void connect() {
        holderSocket = socket("holder");
        waiterSocket = socket("waiter");
        holder = RedisLockClient.on(holderSocket, LEASE_MS, System::nanoTime, Runnable::run);
        waiter = RedisLockClient.on(new SlowSubscriptions(waiterSocket), LEASE_MS, System::nanoTime, Runnable::run);
    }

    private static Transport socket(String name) {
        return new SocketTransport.Factory()
                .connect(TransportConfig.of(redis.server().uri(), Duration.ofSeconds(5), name));
    }

    @AfterEach
    void close() {
        waiter.close();
        holder.close();
        waiterSocket.close();
        holderSocket.close();
    }

    @Test
    void aWaiterNotYetSubscribed_takesTheLockWithinARefreshOnceItIsFree() throws Exception {
        Lease held = holder.lock("slow-sub").acquire();
        CompletableFuture<Optional<Lease>> waiting =
                CompletableFuture.supplyAsync(() -> waiter.lock("slow-sub").tryAcquire(Duration.ofSeconds(4)));
        Thread.sleep(500);
        assertThat(waiting).as("busy while held").isNotDone();
        held.release();
        long released = System.nanoTime();

        Optional<Lease> got = waiting.get(10, TimeUnit.SECONDS);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
        assertThat(got).as("taken by a try while the subscription was pending").isPresent();
        assertThat(waited)
                .as("within a refresh interval (333 ms) of the release, plus scheduling")
                .isLessThan(1_500);
        got.get().release();
    }

    @Test
    void aWaiterNotYetSubscribed_endsAtItsDeadline_notWhenTheSubscriptionAnswers() throws Exception {
        Lease held = holder.lock("slow-end").acquire();
        long start = System.nanoTime();
        Optional<Lease> got = waiter.lock("slow-end").tryAcquire(Duration.ofSeconds(1));
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(got).isEmpty();
        assertThat(waited).as("its 1 s wait, not the 2.5 s subscription").isBetween(900L, 2_000L);
        held.release();
    }

    /** The socket transport, with every subscription confirmed only {@link #SUBSCRIBE_DELAY} after it was asked. */
    private static final class SlowSubscriptions implements Transport {
        private final Transport socket;

        SlowSubscriptions(Transport socket) {
            this.socket = socket;
        }

        @Override
        public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
            return socket.eval(script, keys, args);
        }

        @Override
        public CompletableFuture<Void> subscribe(String channel) {
            return new CompletableFuture<Void>()
                    .completeOnTimeout(null, SUBSCRIBE_DELAY.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public CompletableFuture<Void> unsubscribe(String channel) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void onMessage(BiConsumer<String, String> listener) {}

        @Override
        public void close() {}
    }
}
