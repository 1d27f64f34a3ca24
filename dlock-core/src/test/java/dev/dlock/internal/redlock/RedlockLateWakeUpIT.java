package dev.dlock.internal.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.internal.options.RedlockOptions;
import dev.dlock.internal.options.Settings;
import dev.dlock.internal.testing.SocketTransport;
import dev.dlock.internal.util.Ticker;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;
import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.TopologyExtension;
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
 * A Redlock acquire returns a hold valid for at least half its lease <em>as its caller sees it</em>
 * (docs/waiting.md, "Validity at hand-off"), as LateWakeUpIT checks for the client of one Redis: the
 * acquire's own check runs where the last node's reply is processed, and the caller's thread wakes up
 * after it. Here the caller's clock runs {@code lag} ahead of every other thread's from the moment the
 * first acquire reply arrives, as if the caller woke up that late; the acquire must notice on the
 * caller's thread and renew the hold on the nodes (or, when the caller finds it expired, give it up and
 * take the lock again) before it returns. Three real masters; the clock is the client's injected
 * {@link Ticker}.
 */
final class RedlockLateWakeUpIT {
    @RegisterExtension
    static final TopologyExtension<IndependentMasters> MASTERS =
            IndependentMasters.builder().masters(3).extension();

    private static final long LEASE_MS = 10_000;
    /** 70% of the lease: a hold checked fresh on the reply thread has about 29% left for the caller. */
    private static final long LAG = TimeUnit.MILLISECONDS.toNanos(LEASE_MS * 7 / 10);

    private static final String REPLY_THREAD = "redlock-late-wake-up-replies";

    private final AtomicLong lagOnReply = new AtomicLong(LAG);
    private final AtomicLong lag = new AtomicLong();
    private final ExecutorService replies = Executors.newSingleThreadExecutor(r -> new Thread(r, REPLY_THREAD));
    private Thread caller;
    private RedlockClient client;

    /** The caller sees the lag, every other thread does not. */
    private long now() {
        long t = System.nanoTime();
        return Thread.currentThread() == caller ? t + lag.get() : t;
    }

    @BeforeEach
    void connect(IndependentMasters m) {
        caller = Thread.currentThread();
        client = build(m);
    }

    private RedlockClient build(IndependentMasters m) {
        RedlockOptions options = RedlockOptions.of(Settings.defaults(LockClient.Builder.MAX_NAME_LENGTH)
                .withRedlock(m.uris().toArray(new String[0]))
                .withLeaseTime(Duration.ofMillis(LEASE_MS))
                .withCommandTimeout(RedlockNodesSupport.COMMAND_TIMEOUT)
                .withClientName("redlock-late-wake-up")
                .withTransport(new Lagging())
                .withCallbackExecutor(Runnable::run));
        return RedlockClient.connect(options, this::now);
    }

    @AfterEach
    void close() {
        client.close();
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
    void tryAcquire_ofAFixedLease_returnsItValidForHalfItsLease_asTheCallerSeesIt(IndependentMasters m) {
        Optional<Lease> lease = client.lock("late-fixed").tryAcquire(Duration.ZERO, Duration.ofMillis(LEASE_MS));
        assertThat(lease).isPresent();
        assertFresh(lease.get().remaining());
        for (int i = 0; i < m.size(); i++) {
            assertThat((Long) m.server(i).command("PTTL", RedlockScripts.keys("dlock", "late-fixed")[0]))
                    .as("node %d's expiry", i)
                    .isGreaterThan(LEASE_MS / 2);
        }
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
    void aHoldTheCallerFindsExpired_isGivenUp_andTheLockTakenAgain(IndependentMasters m) {
        lagOnReply.set(TimeUnit.MILLISECONDS.toNanos(LEASE_MS * 12 / 10)); // past the whole lease
        Optional<Lease> lease = client.lock("late-expired").tryAcquire(Duration.ZERO);
        assertThat(lease).as("one more attempt, although the wait was zero").isPresent();
        assertThat(lease.get().remaining())
                .as("left for the caller")
                .isGreaterThanOrEqualTo(Duration.ofMillis(LEASE_MS / 2));
        assertThat(lease.get().fencingToken())
                .as("a new hold: the first (token 1) was given up")
                .isEqualTo(2);
        for (int i = 0; i < m.size(); i++) {
            assertThat(RedlockNodesSupport.ownerOn(m.server(i), "late-expired"))
                    .as("node %d's holder", i)
                    .isEqualTo(((RedlockLease) lease.get()).owner());
        }
        lease.get().release();
    }

    @Test
    void reentryOfAHoldTheCallerFindsLost_throwsTheLoss_once() {
        lagOnReply.set(0);
        DistributedLock lock = client.lock("late-reentry");
        lock.lock();
        lag.set(TimeUnit.MILLISECONDS.toNanos(LEASE_MS * 2)); // by the caller's clock the hold ran out
        assertThatThrownBy(lock::lock).as("re-entering a lost hold").isInstanceOf(LockLostException.class);
        assertThatCode(lock::unlock)
                .as("the outer hold ends without a second report, as on the client of one Redis")
                .doesNotThrowAnyException();
        assertThat(lock.getHoldCount()).isZero();
    }

    private void assertFresh(Duration remaining) {
        assertThat(lag.get()).as("the caller woke up late").isEqualTo(LAG);
        assertThat(remaining).as("left for the caller").isGreaterThanOrEqualTo(Duration.ofMillis(LEASE_MS / 2));
    }

    /**
     * The socket transport, with every reply completed on {@link #REPLY_THREAD}, a reply to the caller's
     * command once the caller has parked waiting for it (so the acquire's own check runs there, as on a
     * real transport's reader thread), and the caller's clock moved on by {@link #lagOnReply} when the
     * first acquire reply arrives.
     */
    private final class Lagging implements TransportFactory {
        private final TransportFactory socket = new SocketTransport.Factory();

        @Override
        public Transport connect(TransportConfig config) {
            Transport delegate = socket.connect(config);
            return new Transport() {
                @Override
                public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
                    boolean fromCaller = Thread.currentThread() == caller;
                    boolean acquire = fromCaller && script.name().equals(RedlockScripts.ACQUIRE.name());
                    CompletableFuture<Object> out = new CompletableFuture<>();
                    delegate.eval(script, keys, args)
                            .whenCompleteAsync(
                                    (reply, error) -> {
                                        if (fromCaller) {
                                            awaitCallerParked();
                                        }
                                        if (acquire) {
                                            lag.compareAndSet(0, lagOnReply.get());
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

                @Override
                public CompletableFuture<Void> subscribe(String channel) {
                    return delegate.subscribe(channel);
                }

                @Override
                public CompletableFuture<Void> unsubscribe(String channel) {
                    return delegate.unsubscribe(channel);
                }

                @Override
                public void onMessage(BiConsumer<String, String> listener) {
                    delegate.onMessage(listener);
                }

                @Override
                public void close() {
                    delegate.close();
                }
            };
        }

        private void awaitCallerParked() {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (caller.getState() != Thread.State.WAITING
                    && caller.getState() != Thread.State.TIMED_WAITING
                    && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        }
    }
}
