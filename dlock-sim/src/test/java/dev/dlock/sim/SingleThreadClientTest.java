package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 25's proof of the runtime seam: two whole dlock clients, as shipped, on the test's one thread, with a
 * simulated clock each (offset and drift), the simulated Redis running dlock's own scripts and a network that delays
 * every command, reply and message: acquire, contention, renewal past several leases, hand-off, loss and release,
 * with no real sleep and no thread of dlock's.
 */
final class SingleThreadClientTest {
    private static final long MS = 1_000_000;
    private static final long EPOCH_MS = 1_760_000_000_000L;

    private final EventLoop loop = new EventLoop();
    private final SimRedis server = new SimRedis(() -> EPOCH_MS + loop.now() / MS);
    private final SplittableRandom seed = new SplittableRandom(20261206);

    private LockClient client(long offsetNanos, double driftPpm, String id) {
        LoopNetwork.Delays delays = LoopNetwork.Delays.between(100_000, 3 * MS);
        SimTransport transport = new SimTransport(server, new LoopNetwork(loop, seed.split(), delays, delays), false);
        return LockClient.builder()
                .redisUri("redis://sim")
                .transport(new TransportFactory() {
                    @Override
                    public Transport connect(TransportConfig config) {
                        return transport;
                    }
                })
                .leaseTime(Duration.ofSeconds(3))
                .runtime(new SimClientRuntime(loop, offsetNanos, driftPpm, id))
                .build();
    }

    private <T> T await(CompletableFuture<T> future) throws Exception {
        assertThat(loop.runUntil(future::isDone, 60_000 * MS))
                .as("done within a simulated minute")
                .isTrue();
        return future.get(0, TimeUnit.MILLISECONDS);
    }

    private static Set<String> dlockThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(n -> n.startsWith("dlock-"))
                .collect(Collectors.toSet());
    }

    @Test
    void twoClients_onOneThread_acquireContendRenewHandOverLoseAndRelease_withoutSleeping() throws Exception {
        Set<String> threadsBefore = dlockThreads();
        long wallStart = System.nanoTime();
        LockClient a = client(5_000 * MS, 40, "client-a");
        LockClient b = client(-7_000 * MS, -40, "client-b");

        Lease first = await(a.lock("job").acquireAsync(Duration.ZERO));
        assertThat(first.isValid()).isTrue();

        CompletableFuture<Lease> waiting = b.lock("job").acquireAsync(Duration.ofSeconds(30));
        loop.runFor(500 * MS);
        assertThat(waiting).as("b waits while a holds").isNotDone();

        loop.runFor(10_000 * MS); // more than three leases: only the watchdog keeps a's
        assertThat(first.isValid()).as("renewed by a's watchdog on a's timer").isTrue();
        assertThat(waiting).isNotDone();
        assertThat((Long) server.call("PTTL", "dlock:{job}")).isPositive();

        CompletableFuture<Void> released = first.releaseAsync();
        Lease second = await(waiting);
        assertThat(second.fencingToken()).as("handed over with a larger token").isGreaterThan(first.fencingToken());
        await(released);
        assertThat(first.isValid()).isFalse();

        CompletableFuture<LockLostException> lost = second.whenLost();
        server.call("DEL", "dlock:{job}"); // an operator's purge
        assertThat(await(lost).getMessage()).contains("job");
        assertThat(second.isValid()).isFalse();
        CompletableFuture<Void> releaseLost = second.releaseAsync();
        assertThat(loop.runUntil(releaseLost::isDone, 60_000 * MS)).isTrue();
        assertThat(releaseLost)
                .as("the loss, reported by the release")
                .failsWithin(Duration.ZERO)
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(LockLostException.class);
        assertThat(server.call("EXISTS", "dlock:{job}")).isEqualTo(0L);

        CompletableFuture<Void> closedA = a.closeAsync();
        CompletableFuture<Void> closedB = b.closeAsync();
        await(closedA);
        await(closedB);
        assertThat(loop.now()).as("simulated time").isGreaterThan(10_000 * MS);
        long wall = System.nanoTime() - wallStart;
        assertThat(wall)
                .as("no real sleep: far less wall time than simulated time")
                .isLessThan(loop.now() / 2);
        assertThat(dlockThreads()).as("no thread of dlock's was made").isEqualTo(threadsBefore);
    }
}
