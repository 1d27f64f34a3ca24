package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.testing.FakeTransport;
import dev.dlock.internal.testing.ManualScheduler;
import dev.dlock.spi.ClientRuntime;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code LockClient.Builder.runtime}: a client built through the public builder takes its clock, its timer and its
 * executors from the runtime given, and from nowhere else: a lease's validity runs on the runtime's clock, the
 * watchdog's round is the runtime's timer's task, callbacks run on the runtime's executor, and close shuts down what
 * it was given. Nothing here sleeps.
 */
@Isolated // looks for a client's timer thread among every thread of the JVM
final class ClientRuntimeTest {
    private static final long LEASE_MS = 3_000;

    /** A runtime over one {@link ManualScheduler}, recording what the client asked it to make. */
    private static class Recording implements ClientRuntime {
        final ManualScheduler time = new ManualScheduler();
        final List<String> timers = new ArrayList<>();
        final List<DirectExecutor> executors = new ArrayList<>();

        @Override
        public long nanoTime() {
            return time.ticker().nanos();
        }

        @Override
        public ScheduledExecutorService newTimer(String name) {
            timers.add(name);
            return time;
        }

        @Override
        public ExecutorService newExecutor(String name) {
            DirectExecutor e = new DirectExecutor(name);
            executors.add(e);
            return e;
        }
    }

    /** Runs each task at once, on the caller's thread, counting them. */
    private static final class DirectExecutor extends AbstractExecutorService {
        final String name;
        int ran;
        boolean shutdown;

        DirectExecutor(String name) {
            this.name = name;
        }

        @Override
        public void execute(Runnable task) {
            ran++;
            task.run();
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return shutdown;
        }
    }

    private static TransportFactory serving(Transport transport) {
        return new TransportFactory() {
            @Override
            public Transport connect(TransportConfig config) {
                return transport;
            }
        };
    }

    @Test
    @Timeout(30)
    void aBlockingCall_waitsThroughTheRuntime_asDoesClose() throws Exception {
        List<Long> waits = new java.util.concurrent.CopyOnWriteArrayList<>();
        Recording runtime = new Recording() {
            @Override
            public <T> T await(CompletableFuture<T> future, long timeoutNanos)
                    throws InterruptedException, java.util.concurrent.ExecutionException,
                            java.util.concurrent.TimeoutException {
                waits.add(timeoutNanos);
                return super.await(future, timeoutNanos);
            }
        };
        FakeTransport redis = new FakeTransport();
        LockClient client = clientOn(runtime, redis);
        ExecutorService caller = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<java.util.Optional<Lease>> taken =
                    caller.submit(() -> client.lock("job").tryAcquire(Duration.ofSeconds(1)));
            redis.next().reply().complete(7L);
            assertThat(taken.get(10, TimeUnit.SECONDS)).isPresent();
            assertThat(waits)
                    .as("the acquire's wait, which ends by its own deadline")
                    .contains(ClientRuntime.FOREVER);
            redis.answerEverything();
            client.close();
            assertThat(waits)
                    .as("close waits for its releases, bounded")
                    .anySatisfy(w -> assertThat(w).isPositive().isLessThan(ClientRuntime.FOREVER));
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    void aClientOfTheBuilder_runsOnTheGivenRuntimesClockTimerAndExecutor() throws Exception {
        Recording runtime = new Recording();
        FakeTransport redis = new FakeTransport();
        LockClient client = LockClient.builder()
                .redisUri("redis://simulated")
                .transport(serving(redis))
                .leaseTime(Duration.ofMillis(LEASE_MS))
                .runtime(runtime)
                .build();
        assertThat(runtime.timers).hasSize(1).allSatisfy(n -> assertThat(n).startsWith("dlock-timer-"));
        assertThat(runtime.executors)
                .as("the default callback pool")
                .singleElement()
                .satisfies(e -> assertThat(e.name).startsWith("dlock-callback-"));

        CompletableFuture<Lease> acquire = client.lock("job").acquireAsync(Duration.ZERO);
        FakeTransport.Call call = redis.next();
        assertThat(call.script()).isSameAs(Scripts.ACQUIRE);
        call.reply().complete(7L);
        Lease lease = acquire.get(5, TimeUnit.SECONDS);
        assertThat(runtime.executors.get(0).ran)
                .as("the acquire completed on the runtime's executor")
                .isPositive();

        long before = lease.remaining().toMillis();
        runtime.time.advance(900); // less than a watchdog round (1 s): only the clock moves
        assertThat(before - lease.remaining().toMillis())
                .as("validity read on the runtime's clock")
                .isEqualTo(900);
        assertThat(redis.poll(0)).as("no renewal before the round").isNull();
        runtime.time.advance(100);
        assertThat(redis.poll(0))
                .as("the watchdog's round ran on the runtime's timer")
                .isNotNull()
                .satisfies(renewal -> assertThat(renewal.script()).isNotSameAs(Scripts.ACQUIRE));

        redis.answerEverything();
        client.close();
        assertThat(runtime.time.isShutdown())
                .as("the timer it was given, shut down at close")
                .isTrue();
        assertThat(runtime.executors.get(0).shutdown).isTrue();
    }

    private LockClient clientOn(Recording runtime, FakeTransport redis) {
        return LockClient.builder()
                .redisUri("redis://simulated")
                .transport(serving(redis))
                .leaseTime(Duration.ofMillis(LEASE_MS))
                .commandTimeout(Duration.ofSeconds(2))
                .runtime(runtime)
                .build();
    }

    private static Lease take(LockClient client, FakeTransport redis, String name, long token) throws Exception {
        CompletableFuture<Lease> acquire = client.lock(name).acquireAsync(Duration.ZERO);
        redis.next().reply().complete(token);
        return acquire.get(5, TimeUnit.SECONDS);
    }

    @Test
    void closeAsync_sendsTheReleases_andCompletesWhenTheyAreAnswered_withoutBlocking() throws Exception {
        Recording runtime = new Recording();
        FakeTransport redis = new FakeTransport();
        LockClient client = clientOn(runtime, redis);
        Lease lease = take(client, redis, "job", 7);

        CompletableFuture<Void> closed = client.closeAsync();
        FakeTransport.Call release = redis.poll(0);
        assertThat(release).as("the release, sent at once").isNotNull();
        assertThat(closed).isNotDone();
        assertThat(client.closeAsync()).as("the same close").isSameAs(closed);
        assertThat(lease.isValid()).isFalse();
        release.reply().complete(1L);
        assertThat(closed).isCompleted();
        assertThat(runtime.time.isShutdown()).isTrue();
    }

    @Test
    void closeAsync_withoutAnAnswer_endsTheClientAfterTheBound_onTheRuntimesClock() throws Exception {
        Recording runtime = new Recording();
        FakeTransport redis = new FakeTransport();
        LockClient client = clientOn(runtime, redis);
        take(client, redis, "job", 7);

        CompletableFuture<Void> closed = client.closeAsync();
        assertThat(redis.poll(0)).as("the release, never answered").isNotNull();
        runtime.time.advance(2999); // command timeout 2 s + 1 s
        assertThat(closed).isNotDone();
        runtime.time.advance(1);
        assertThat(closed).isCompleted();
        assertThat(runtime.time.isShutdown()).isTrue();
    }

    @Test
    void theRuntimeMakesTheClientId_andABadOne_isRefusedBeforeAnyIo() {
        Recording runtime = new Recording() {
            @Override
            public String newClientId() {
                return "sim-0000-0001";
            }
        };
        FakeTransport redis = new FakeTransport();
        try (LockClient client = clientOn(runtime, redis)) {
            assertThat(client.clientId()).isEqualTo("sim-0000-0001");
            redis.answerEverything();
        }
        Recording bad = new Recording() {
            @Override
            public String newClientId() {
                return "a:b";
            }
        };
        int[] connects = {0};
        assertThatThrownBy(() -> LockClient.builder()
                        .redisUri("redis://simulated")
                        .transport(new TransportFactory() {
                            @Override
                            public Transport connect(TransportConfig config) {
                                connects[0]++;
                                return redis;
                            }
                        })
                        .runtime(bad)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("newClientId()");
        assertThat(connects[0]).as("no connection made").isZero();
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS) // a release that waits for its reply would wait 60 s here
    void aCancelledMultiLock_releasesWhatItTook_withoutWaitingForTheReplies() throws Exception {
        Recording runtime = new Recording(); // callbacks run inline, on the thread that completes them
        FakeTransport redis = new FakeTransport();
        LockClient client = LockClient.builder()
                .redisUri("redis://simulated")
                .transport(serving(redis))
                .leaseTime(Duration.ofMillis(LEASE_MS))
                .commandTimeout(Duration.ofSeconds(59))
                .runtime(runtime)
                .build();
        CompletableFuture<Lease> acquire = client.multiLock("a", "b").acquireAsync(Duration.ofSeconds(30));
        FakeTransport.Call first = redis.next();
        assertThat(first.keys()[0]).isEqualTo("dlock:{a}");
        first.reply().complete(7L); // 'a' taken
        FakeTransport.Call second = redis.next();
        assertThat(second.keys()[0]).isEqualTo("dlock:{b}");

        acquire.cancel(true); // gives up 'b' and gives back 'a': neither may wait for Redis on this thread
        assertThat(acquire).isCancelled();
        second.reply().complete(-2L - 10_000); // b was busy
        List<String> released = new ArrayList<>();
        for (FakeTransport.Call call; (call = redis.poll(0)) != null; ) {
            if (call.script() == Scripts.RELEASE) {
                released.add(call.keys()[0]);
            }
        }
        assertThat(released).as("the release of 'a', sent, not awaited").containsExactly("dlock:{a}");
        redis.answerEverything();
        client.closeAsync();
    }

    @Test
    void withoutARuntime_aClientHasTheSystemsClockAndThreads() {
        FakeTransport redis = new FakeTransport();
        try (LockClient client = LockClient.builder()
                .redisUri("redis://simulated")
                .transport(serving(redis))
                .build()) {
            assertThat(Thread.getAllStackTraces().keySet())
                    .as("a timer thread of its own")
                    .anySatisfy(t -> assertThat(t.getName()).startsWith("dlock-timer-"));
            redis.answerEverything();
        }
    }
}
