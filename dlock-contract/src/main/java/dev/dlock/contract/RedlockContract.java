package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockLostException;
import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redlock ({@code LockClient.builder().redlock(...)}) over three independent masters on the transport
 * under test: the lock is held on a quorum and released on every node, contending clients never
 * overlap and see increasing tokens, one node down leaves a quorum, two down fail with {@link
 * LockConnectionException}. The protocol itself is tested in dlock-core (docs/redlock.md); this
 * checks that a real transport carries it.
 */
public abstract class RedlockContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected RedlockContract() {}

    @RegisterExtension
    final TopologyExtension<IndependentMasters> masters =
            IndependentMasters.builder().masters(3).extension(); // one set per test: tests kill nodes

    private LockClient client(IndependentMasters m) {
        return LockClient.builder()
                .redlock(m.uris().toArray(String[]::new))
                .transport(transport())
                .leaseTime(Duration.ofSeconds(5))
                .commandTimeout(Duration.ofMillis(1000))
                .build();
    }

    private static int nodesHolding(IndependentMasters m, String name) {
        int holding = 0;
        for (RedisServer server : m.servers()) {
            if (server.isRunning()
                    && server.command("EXISTS", "dlock:{" + name + "}:redlock").equals(1L)) {
                holding++;
            }
        }
        return holding;
    }

    /** How many nodes hold the name, once that is {@code wanted} or after 2 s (scaled). */
    private static int awaitNodesHolding(IndependentMasters m, String name, int wanted) {
        long until = System.nanoTime() + Timing.scaled(Duration.ofSeconds(2)).toNanos();
        int holding = nodesHolding(m, name);
        while (holding != wanted && System.nanoTime() - until < 0) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            holding = nodesHolding(m, name);
        }
        return holding;
    }

    @Test
    void aLeaseIsHeldOnAQuorum_andReleasedOnEveryNode(IndependentMasters m) {
        try (LockClient a = client(m);
                LockClient b = client(m)) {
            Lease lease = a.lock("quorum").acquire();
            assertThat(nodesHolding(m, "quorum")).isGreaterThanOrEqualTo(2);
            assertThat(b.lock("quorum").tryAcquire(Duration.ZERO)).isEmpty();
            lease.release();
            // release() returns once a quorum released (a down node must not hold it up); the
            // release to the last node may still be on its way
            assertThat(awaitNodesHolding(m, "quorum", 0)).isZero();
            Optional<Lease> next = b.lock("quorum").tryAcquire(Duration.ZERO);
            assertThat(next).isPresent();
            assertThat(next.get().fencingToken()).isGreaterThan(lease.fencingToken());
            next.get().release();
        }
    }

    @Test
    void releaseAsync_releasesOnEveryNode_andALeaseAQuorumLost_failsWithTheLoss(IndependentMasters m) throws Exception {
        long wait = Timing.scaled(Duration.ofSeconds(5)).toMillis();
        try (LockClient a = client(m);
                LockClient b = client(m)) {
            Lease lease = a.lock("async").acquire();
            lease.releaseAsync().get(wait, TimeUnit.MILLISECONDS);
            assertThat(awaitNodesHolding(m, "async", 0)).isZero();
            assertThat(lease.releaseAsync()).as("a second call").isCompleted();

            Lease next = b.lock("async").acquire();
            assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            for (RedisServer server : m.servers().subList(0, 2)) {
                server.command("DEL", "dlock:{async}:redlock"); // two of three nodes lose it
            }
            assertThat(next.releaseAsync())
                    .failsWithin(wait, TimeUnit.MILLISECONDS)
                    .withThrowableOfType(ExecutionException.class)
                    .havingCause()
                    .isInstanceOf(LockLostException.class)
                    .withMessageContaining("a quorum of 2 no longer had it");
            assertThat(next.releaseAsync().isCompletedExceptionally())
                    .as("the loss is reported once")
                    .isFalse();
        }
    }

    @Test
    void contendingClients_neverOverlap_andTokensIncrease(IndependentMasters m) throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicLong lastToken = new AtomicLong();
        AtomicInteger regressions = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (LockClient a = client(m);
                LockClient b = client(m)) {
            List<Future<Integer>> workers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                LockClient client = i % 2 == 0 ? a : b;
                workers.add(pool.submit(() -> {
                    int holds = 0;
                    while (holds < 10) {
                        Optional<Lease> got = client.lock("contended").tryAcquire(Timing.scaled(Duration.ofSeconds(5)));
                        if (got.isEmpty()) {
                            continue;
                        }
                        try (Lease lease = got.get()) {
                            if (inside.incrementAndGet() > 1) {
                                overlaps.incrementAndGet();
                            }
                            long token = lease.fencingToken();
                            if (lastToken.getAndAccumulate(token, Math::max) >= token) {
                                regressions.incrementAndGet();
                            }
                            Thread.sleep(2);
                            inside.decrementAndGet();
                        }
                        holds++;
                    }
                    return holds;
                }));
            }
            for (Future<Integer> worker : workers) {
                assertThat(worker.get(Timing.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS))
                        .isEqualTo(10);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(overlaps).hasValue(0);
        assertThat(regressions).hasValue(0);
    }

    @Test
    void oneNodeDown_leavesAQuorum_twoDown_failAsAConnectionError(IndependentMasters m) {
        try (LockClient a = client(m)) {
            m.server(0).kill();
            try (Lease lease = a.lock("down").acquire()) {
                assertThat(nodesHolding(m, "down")).isEqualTo(2);
            }
            m.server(1).kill();
            assertThatThrownBy(() -> a.lock("down").tryAcquire(Duration.ZERO))
                    .isInstanceOf(LockConnectionException.class);
        }
    }
}
