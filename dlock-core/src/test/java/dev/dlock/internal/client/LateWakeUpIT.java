package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.internal.testing.SocketTransport;
import dev.dlock.internal.util.Ticker;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.testkit.RedisExtension;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every acquire returns a hold valid for at least half its lease time <em>as its caller sees it</em>
 * (docs/waiting.md, "Validity at hand-off"): the check made when the acquire's reply is processed, on
 * the transport's thread, does not cover the time the caller's thread then takes to wake up, which a
 * loaded host stretches (dlock-verify's checker 6 saw holds returned with 30-40% of their lease left).
 * Here the caller's clock runs {@code LAG} ahead of the reply thread's from the moment the acquire's
 * reply arrives, as if the caller woke up that late; the acquire must notice on the caller's thread and
 * renew the hold before it returns. A real server; the clock is the client's injected {@link Ticker}.
 */
final class LateWakeUpIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final long LEASE_MS = 10_000;
    /** 70% of the lease: a hold checked fresh on the reply thread has about 29% left for the caller. */
    private static final long LAG = TimeUnit.MILLISECONDS.toNanos(LEASE_MS * 7 / 10);

    private static final String REPLY_THREAD = "late-wake-up-replies";

    private final AtomicLong lag = new AtomicLong();
    private final ExecutorService replies = Executors.newSingleThreadExecutor(r -> new Thread(r, REPLY_THREAD));
    private Thread caller;
    private Transport socket;
    private RedisLockClient client;

    /** The caller sees the lag, the reply thread does not. */
    private long now() {
        long t = System.nanoTime();
        return Thread.currentThread().getName().equals(REPLY_THREAD) ? t : t + lag.get();
    }

    @BeforeEach
    void connect() {
        caller = Thread.currentThread();
        socket = new SocketTransport.Factory()
                .connect(TransportConfig.of(redis.server().uri(), Duration.ofSeconds(5), "late-wake-up"));
        client = RedisLockClient.on(new LaggingTransport(), LEASE_MS, this::now, Runnable::run);
    }

    @AfterEach
    void close() {
        client.close();
        socket.close();
        replies.shutdownNow();
    }

    @Test
    void tryAcquire_returnsALeaseValidForHalfItsLease_asTheCallerSeesIt() {
        Optional<Lease> lease = client.lock("late-lease").tryAcquire(Duration.ZERO);
        assertThat(lease).isPresent();
        assertFresh(lease.get().remaining());
        lease.get().release();
    }

    @Test
    void tryAcquire_ofAFixedLease_returnsItValidForHalfItsLease_asTheCallerSeesIt() {
        Optional<Lease> lease = client.lock("late-fixed").tryAcquire(Duration.ZERO, Duration.ofMillis(LEASE_MS));
        assertThat(lease).isPresent();
        assertFresh(lease.get().remaining());
        assertThat((Long) redis.server().command("PTTL", "dlock:{late-fixed}"))
                .as("renewed in Redis too")
                .isGreaterThan(LEASE_MS / 2);
        lease.get().release();
    }

    @Test
    void tryLock_returnsAHoldValidForHalfItsLease_asTheCallerSeesIt() {
        DistributedLock lock = client.lock("late-thread");
        assertThat(lock.tryLock()).isTrue();
        assertFresh(lock.remaining());
        lock.unlock();
    }

    @Test
    void aPermit_isReturnedValidForHalfItsLease_asTheCallerSeesIt() {
        Optional<Lease> lease = client.semaphore("late-permit", 2).tryAcquire(Duration.ZERO);
        assertThat(lease).isPresent();
        assertFresh(lease.get().remaining());
        lease.get().release();
    }

    @Test
    void aReadHold_isReturnedValidForHalfItsLease_asTheCallerSeesIt() {
        Optional<Lease> lease = client.readWriteLock("late-read").readLock().tryAcquire(Duration.ZERO);
        assertThat(lease).isPresent();
        assertFresh(lease.get().remaining());
        lease.get().release();
    }

    private void assertFresh(Duration remaining) {
        assertThat(lag.get()).as("the caller woke up late").isEqualTo(LAG);
        assertThat(remaining).as("left for the caller").isGreaterThanOrEqualTo(Duration.ofMillis(LEASE_MS / 2));
    }

    /**
     * The socket transport, with every reply completed on {@link #REPLY_THREAD}, a reply to the caller's
     * command once the caller has parked waiting for it (so the acquire's own check runs there, as on a real transport's reader
     * thread), and the caller's clock moved on by {@link #LAG} when the first acquire's reply arrives.
     */
    private final class LaggingTransport implements Transport {
        @Override
        public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
            boolean fromCaller = Thread.currentThread() == caller;
            boolean acquire = fromCaller && script.name().endsWith("acquire");
            CompletableFuture<Object> out = new CompletableFuture<>();
            socket.eval(script, keys, args)
                    .whenCompleteAsync(
                            (reply, error) -> {
                                if (fromCaller) {
                                    awaitCallerParked();
                                }
                                if (acquire) {
                                    lag.compareAndSet(0, LAG);
                                }
                                if (error != null) {
                                    out.completeExceptionally(error);
                                } else {
                                    out.complete(reply);
                                }
                            },
                            replies);
            return out;
        }

        private void awaitCallerParked() {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (caller.getState() != Thread.State.WAITING
                    && caller.getState() != Thread.State.TIMED_WAITING
                    && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        }

        @Override
        public CompletableFuture<Void> subscribe(String channel) {
            return socket.subscribe(channel);
        }

        @Override
        public CompletableFuture<Void> unsubscribe(String channel) {
            return socket.unsubscribe(channel);
        }

        @Override
        public void onMessage(BiConsumer<String, String> listener) {
            socket.onMessage(listener);
        }

        @Override
        public void close() {}
    }
}
