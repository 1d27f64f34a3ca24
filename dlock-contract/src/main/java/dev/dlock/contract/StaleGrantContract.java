package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockInfo;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportFactory;
import dev.dlock.testkit.RedisExtension;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A grant that reaches its waiter after a later try of that waiter found the lock busy must not be taken
 * as a fresh hold (issue 24, defect 2). The interleaving, on a real server: W queues and the reply of that
 * try is late; H releases and grants W, and the grant message to W is later still (W's command and pub/sub
 * connections recover from one blip at different times); W's granted hold expires and C, queued behind W,
 * takes the lock; W's next try answers busy; then the old grant arrives. W must go on waiting (and take the
 * lock once C releases it), never return while C holds it. Mutex, semaphore of one permit and write lock
 * alike.
 */
public abstract class StaleGrantContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected StaleGrantContract() {}

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final long LEASE_MS = 1_500;
    private static final long REPLY_LATE_MS = 2_500;
    private static final long GRANT_LATE_MS = 4_300;
    private static final long C_HOLDS_MS = 6_000; // past the old grant's arrival (4.3 s after H's release)

    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final ScheduledExecutorService delays = Executors.newSingleThreadScheduledExecutor();
    private final CountDownLatch queued = new CountDownLatch(1);
    private LockClient holder;
    private LockClient competitor;
    private LockClient waiter;

    @BeforeEach
    void openClients() {
        holder = client().build();
        competitor = client().build();
        TransportFactory real = transport();
        waiter = client().transport(config -> new LateTransport(real.connect(config), delays, queued))
                .build();
    }

    private LockClient.Builder client() {
        return builder(redis.server().uri()).leaseTime(Duration.ofMillis(LEASE_MS));
    }

    @AfterEach
    void close() throws InterruptedException {
        callers.shutdownNow();
        waiter.close();
        competitor.close();
        holder.close();
        delays.shutdownNow();
        assertThat(callers.awaitTermination(10, TimeUnit.SECONDS))
                .as("callers ended")
                .isTrue();
    }

    @Test
    void mutex_oldGrantAfterABusyTry_isNotTakenWhileAnotherHolds() throws Exception {
        run(new Kind() {
            @Override
            public Lease hold(LockClient client, String name) {
                return client.lock(name).acquire();
            }

            @Override
            public Optional<Lease> tryHold(LockClient client, String name, Duration wait) {
                return client.lock(name).tryAcquire(wait);
            }

            @Override
            public LockInfo info(LockClient client, String name) {
                return client.lock(name).info();
            }
        });
    }

    @Test
    void semaphoreOfOnePermit_oldGrantAfterABusyTry_isNotTakenWhileAnotherHolds() throws Exception {
        run(new Kind() {
            @Override
            public Lease hold(LockClient client, String name) {
                return client.semaphore(name, 1).acquire();
            }

            @Override
            public Optional<Lease> tryHold(LockClient client, String name, Duration wait) {
                return client.semaphore(name, 1).tryAcquire(wait);
            }

            @Override
            public LockInfo info(LockClient client, String name) {
                return client.semaphore(name, 1).info();
            }
        });
    }

    @Test
    void writeLock_oldGrantAfterABusyTry_isNotTakenWhileAnotherHolds() throws Exception {
        run(new Kind() {
            @Override
            public Lease hold(LockClient client, String name) {
                return client.readWriteLock(name).writeLock().acquire();
            }

            @Override
            public Optional<Lease> tryHold(LockClient client, String name, Duration wait) {
                return client.readWriteLock(name).writeLock().tryAcquire(wait);
            }

            @Override
            public LockInfo info(LockClient client, String name) {
                return client.readWriteLock(name).writeLock().info();
            }
        });
    }

    private interface Kind {
        Lease hold(LockClient client, String name);

        Optional<Lease> tryHold(LockClient client, String name, Duration wait);

        LockInfo info(LockClient client, String name);
    }

    private void run(Kind kind) throws Exception {
        String name = "stale-grant-" + System.nanoTime();
        Lease first = kind.hold(holder, name);
        long start = System.nanoTime();
        CompletableFuture<Optional<Lease>> w =
                CompletableFuture.supplyAsync(() -> kind.tryHold(waiter, name, Duration.ofSeconds(12)), callers);
        assertThat(queued.await(5, TimeUnit.SECONDS)).as("W queued; W: %s", w).isTrue();
        CompletableFuture<Lease> c = CompletableFuture.supplyAsync(() -> kind.hold(competitor, name), callers);
        awaitWaiters(kind, name, 2); // C queued behind W
        first.release(); // grants W: its grant message arrives 4.3 s from now, its try's reply 2.5 s after it was sent

        Lease competitorLease = c.get(10, TimeUnit.SECONDS); // W's granted hold expired unused, C took it
        assertThat(w).as("W still waits when C takes the lock").isNotDone();
        long competitorToken = competitorLease.fencingToken();
        Thread.sleep(Math.max(0, C_HOLDS_MS - millisSince(start)));
        assertThat(w)
                .as(
                        "W returned while C held the lock (C's token %d); W's result: %s",
                        competitorToken, w.isDone() ? w.getNow(null) : null)
                .isNotDone();
        assertThat(competitorLease.isValid()).as("C's lease").isTrue();
        competitorLease.release();

        Optional<Lease> got = w.get(10, TimeUnit.SECONDS);
        assertThat(got).as("W takes the lock once C released it").isPresent();
        assertThat(got.get().fencingToken()).as("W's token").isGreaterThan(competitorToken);
        assertThat(got.get().isValid()).isTrue();
        got.get().release();
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private void awaitWaiters(Kind kind, String name, int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (kind.info(holder, name).waiters() < n) {
            assertThat(System.nanoTime() - end)
                    .as("%d waiters queued in time", n)
                    .isNegative();
            Thread.sleep(20);
        }
    }

    /**
     * The socket transport with W's connections out of step: the reply of its first queueing try comes
     * {@link #REPLY_LATE_MS} late, and every grant message {@link #GRANT_LATE_MS} late.
     */
    private static final class LateTransport implements Transport {
        private final Transport socket;
        private final ScheduledExecutorService delays;
        private final AtomicBoolean firstQueueing = new AtomicBoolean(true);
        private final CountDownLatch queued;

        LateTransport(Transport socket, ScheduledExecutorService delays, CountDownLatch queued) {
            this.socket = socket;
            this.delays = delays;
            this.queued = queued;
        }

        @Override
        public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
            CompletableFuture<Object> reply = socket.eval(script, keys, args);
            // a queueing try of the mutex or the semaphore: ARGV[3] (mode) is '1' and ARGV[5] the wait id
            boolean queueing = args.length > 4 && "1".equals(args[2]);
            if (!queueing || !firstQueueing.compareAndSet(true, false)) {
                return reply;
            }
            queued.countDown();
            return reply.thenCompose(r -> later(REPLY_LATE_MS, () -> CompletableFuture.completedFuture(r)));
        }

        private <T> CompletableFuture<T> later(long millis, Supplier<CompletableFuture<T>> then) {
            CompletableFuture<T> out = new CompletableFuture<>();
            delays.schedule(
                    () -> then.get().whenComplete((v, e) -> {
                        if (e != null) {
                            out.completeExceptionally(e);
                        } else {
                            out.complete(v);
                        }
                    }),
                    millis,
                    TimeUnit.MILLISECONDS);
            return out;
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
            socket.onMessage((channel, message) -> {
                if (message.startsWith("g ")) {
                    delays.schedule(() -> listener.accept(channel, message), GRANT_LATE_MS, TimeUnit.MILLISECONDS);
                } else {
                    listener.accept(channel, message);
                }
            });
        }

        @Override
        public void close() {
            socket.close();
        }
    }
}
