package dev.dlock.internal.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockInfo;
import dev.dlock.LockLostException;
import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code LockClient} / {@code DistributedLock} / {@code Lease} contract on a Redlock client over 3
 * masters: re-entry per thread, waiting by polling, the watchdog, loss, {@code expireIn}, the
 * asynchronous acquire, inspection and the admin view, close, and nodes down at build and at release.
 * Every test uses its own lock names and brings the nodes it stopped back.
 */
final class RedlockLockIT {
    private static final Duration WAIT = Timing.scaled(Duration.ofSeconds(5));

    @RegisterExtension
    static final TopologyExtension<IndependentMasters> MASTERS =
            IndependentMasters.builder().masters(3).extension();

    @Test
    void lock_reentersPerThread_andOnlyTheLastUnlockReleases(IndependentMasters m) throws Exception {
        try (LockClient a = RedlockNodesSupport.builder(m).build();
                LockClient b = RedlockNodesSupport.builder(m).build()) {
            DistributedLock lock = a.lock("reentry");
            lock.lock();
            lock.lock();
            assertThat(lock.getHoldCount()).isEqualTo(2);
            assertThat(lock.isHeldByCurrentThread()).isTrue();
            long token = lock.fencingToken();
            assertThat(b.lock("reentry").tryLock()).isFalse();
            lock.unlock();
            assertThat(lock.fencingToken()).isEqualTo(token);
            assertThat(b.lock("reentry").tryLock(0, TimeUnit.SECONDS)).isFalse();
            lock.unlock();
            assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
            CompletableFuture<Boolean> other = CompletableFuture.supplyAsync(() -> {
                DistributedLock theirs = b.lock("reentry");
                boolean got = theirs.tryLock();
                if (got) {
                    theirs.unlock();
                }
                return got;
            });
            assertThat(other.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void tryAcquire_withAWait_pollsUntilTheHolderReleases(IndependentMasters m) throws Exception {
        try (LockClient a = RedlockNodesSupport.builder(m).build();
                LockClient b = RedlockNodesSupport.builder(m).build()) {
            Lease held = a.lock("poll").acquire();
            CompletableFuture<Optional<Lease>> waiter =
                    CompletableFuture.supplyAsync(() -> b.lock("poll").tryAcquire(WAIT));
            Thread.sleep(300);
            assertThat(waiter).isNotDone();
            long released = System.nanoTime();
            held.release();
            Lease next = waiter.get(WAIT.toMillis() + 2000, TimeUnit.MILLISECONDS)
                    .orElseThrow(() -> new AssertionError("the wait ran out after the release"));
            long afterRelease = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
            assertThat(afterRelease)
                    .as("ms from release to the waiter's lease (backoff ≤ 250 ms)")
                    .isLessThan(Timing.scaled(Duration.ofSeconds(2)).toMillis());
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            assertThat(b.lock("poll").tryAcquire(Duration.ofMillis(200)))
                    .as("busy: empty after the wait")
                    .isEmpty();
            next.release();
        }
    }

    @Test
    void contendingClients_neverHoldAtOnce_andEveryoneGetsItsTurns(IndependentMasters m) throws Exception {
        int clients = 3;
        int threadsPerClient = 2;
        int rounds = 15;
        List<LockClient> opened = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(clients * threadsPerClient);
        try {
            for (int c = 0; c < clients; c++) {
                opened.add(RedlockNodesSupport.builder(m).build());
            }
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            AtomicLong lastToken = new AtomicLong();
            AtomicInteger stale = new AtomicInteger();
            List<Future<Integer>> workers = new ArrayList<>();
            for (int w = 0; w < clients * threadsPerClient; w++) {
                LockClient client = opened.get(w % clients);
                workers.add(pool.submit(() -> {
                    DistributedLock lock = client.lock("contended");
                    for (int i = 0; i < rounds; i++) {
                        lock.lock();
                        try {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            if (lock.fencingToken() <= lastToken.getAndSet(lock.fencingToken())) {
                                stale.incrementAndGet();
                            }
                            Thread.sleep(1);
                            inside.decrementAndGet();
                        } finally {
                            lock.unlock();
                        }
                    }
                    return rounds;
                }));
            }
            int done = 0;
            for (Future<Integer> worker : workers) {
                done += worker.get(Timing.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS);
            }
            assertThat(done).isEqualTo(clients * threadsPerClient * rounds);
            assertThat(overlaps).as("holds that overlapped another").hasValue(0);
            assertThat(stale).as("tokens not above the previous holder's").hasValue(0);
        } finally {
            pool.shutdownNow();
            opened.forEach(LockClient::close);
        }
    }

    @Test
    void watchdog_keepsALeasePastItsLeaseTime_onEveryNode(IndependentMasters m) throws Exception {
        try (LockClient a = RedlockNodesSupport.builder(m)
                .leaseTime(Duration.ofMillis(1000))
                .build()) {
            Lease lease = a.lock("watchdog").acquire();
            Thread.sleep(2500); // two and a half lease times
            assertThat(lease.isValid()).isTrue();
            assertThat(lease.remaining()).isPositive();
            for (RedisServer server : m.servers()) {
                assertThat(RedlockNodesSupport.ownerOn(server, "watchdog")).isNotNull();
            }
            lease.release();
            assertThat(lease.isValid()).isFalse();
        }
    }

    @Test
    void aLeaseIsLost_whenAQuorumOfNodesNoLongerHasIt(IndependentMasters m) throws Exception {
        try (LockClient a = RedlockNodesSupport.builder(m)
                .leaseTime(Duration.ofMillis(1000))
                .build()) {
            Lease lease = a.lock("lost").acquire();
            CompletableFuture<LockLostException> lost = lease.whenLost();
            List<LockLostException> heard = new CopyOnWriteArrayList<>();
            CompletableFuture<LockLostException> listened = new CompletableFuture<>();
            lease.onLost(e -> {
                heard.add(e);
                listened.complete(e);
            });
            String key = RedlockScripts.keys("dlock", "lost")[0];
            m.server(0).command("DEL", key);
            m.server(1).command("DEL", key);
            LockLostException loss = lost.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(loss.getMessage()).contains("gone or owned by another owner on 2 of 3 nodes");
            assertThat(lease.isValid()).isFalse();
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
            lease.release(); // once only
            assertThat(listened.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isSameAs(loss);
            assertThat(heard).hasSize(1);
        }
    }

    @Test
    void aRenewalWithoutAQuorum_extendsNothing_andTheLeaseEndsAtItsDeadline(IndependentMasters m) throws Exception {
        try (LockClient a = RedlockNodesSupport.builder(m)
                .leaseTime(Duration.ofMillis(1000))
                .build()) {
            Lease lease = a.lock("no-quorum").acquire();
            long start = System.nanoTime();
            long left = lease.remaining().toNanos(); // read after start: the deadline is at least start + left
            m.server(1).kill();
            m.server(2).kill();
            try {
                LockLostException loss = lease.whenLost().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                long elapsed = System.nanoTime() - start;
                assertThat(loss.getMessage()).contains("no quorum of nodes confirmed a renewal");
                assertThat(elapsed).as("lost at its deadline, not before").isGreaterThanOrEqualTo(left);
            } finally {
                m.server(1).start();
                m.server(2).start();
            }
        }
    }

    @Test
    void expireIn_setsAFixedLeasesEnd_onAQuorum(IndependentMasters m) throws Exception {
        try (LockClient a = RedlockNodesSupport.builder(m).build()) {
            Lease fixed = a.lock("expire-in")
                    .tryAcquire(Duration.ZERO, Duration.ofSeconds(10))
                    .orElseThrow();
            assertThat(fixed.expireIn(Duration.ofMillis(400))).isTrue();
            assertThat(fixed.remaining()).isLessThanOrEqualTo(Duration.ofMillis(400));
            String key = RedlockScripts.keys("dlock", "expire-in")[0];
            // expireIn returns at a quorum: the last node may take a moment longer (it must not be skipped)
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            for (RedisServer server : m.servers()) {
                while ((Long) server.command("PTTL", key) > 400L && System.nanoTime() < until) {
                    Thread.sleep(5);
                }
                assertThat((Long) server.command("PTTL", key)).isLessThanOrEqualTo(400L); // -2 once gone
            }
            LockLostException end = fixed.whenLost().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(end.getMessage()).contains("its lease time ended");
            assertThat(fixed.expireIn(Duration.ofSeconds(1))).isFalse();

            Lease renewed = a.lock("expire-in-watchdog").acquire();
            assertThatThrownBy(() -> renewed.expireIn(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class);
            renewed.release();
        }
    }

    @Test
    void semaphore_isNotSupported_andSaysWhy(IndependentMasters m) {
        try (LockClient a = RedlockNodesSupport.builder(m).build()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.semaphore("s", 2))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("Redlock client does not support semaphores");
        }
    }

    @Test
    void readWriteLock_isNotSupported_andSaysWhy(IndependentMasters m) {
        try (LockClient a = RedlockNodesSupport.builder(m).build()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.readWriteLock("rw"))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("Redlock client does not support read-write locks");
        }
    }

    @Test
    void acquireAsync_completesWithALease_orNullWhenBusy(IndependentMasters m) throws Exception {
        try (LockClient a = RedlockNodesSupport.builder(m).build()) {
            Lease lease = a.lock("async").acquireAsync(Duration.ZERO).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(lease).isNotNull();
            assertThat(a.lock("async").acquireAsync(Duration.ofMillis(200)).get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                    .isNull();
            CompletableFuture<Lease> cancelled = a.lock("async").acquireAsync(WAIT);
            cancelled.cancel(true);
            lease.release();
            Thread.sleep(300); // an attempt under way at the cancel must give back what it took
            Lease again = a.lock("async")
                    .tryAcquire(Duration.ZERO)
                    .orElseThrow(() -> new AssertionError("the cancelled acquire left the lock held"));
            again.release();
        }
    }

    @Test
    void infoAndAdmin_reportTheQuorumsHolder_andForceUnlockFreesIt(IndependentMasters m) throws Exception {
        try (LockClient a = RedlockNodesSupport.builder(m).build()) {
            DistributedLock lock = a.lock("info");
            assertThat(lock.isLocked()).isFalse();
            Lease lease = lock.acquire();
            LockInfo info = lock.info();
            assertThat(info.holderId()).hasValueSatisfying(id -> assertThat(id).startsWith(a.clientId()));
            assertThat(info.fencingToken()).isEqualTo(lease.fencingToken());
            assertThat(info.remaining()).isPositive();
            LockAdmin admin = a.admin();
            LockInfo state = admin.status("info");
            assertThat(state.holderId()).isEqualTo(info.holderId());
            assertThat(state.waiters()).isZero();
            assertThatThrownBy(() -> admin.list("*")).isInstanceOf(UnsupportedOperationException.class);
            LockAdmin.ForcedUnlock forced = admin.forceUnlock("info");
            assertThat(forced.removed()).isPresent();
            assertThat(lock.isLocked()).isFalse();
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
            assertThat(admin.purge("info")).as("the counters, on 3 nodes").isEqualTo(3);
            assertThat(admin.keyBeside("info", "data")).isEqualTo("dlock:{info}:data");
        }
    }

    @Test
    void close_releasesEveryLease_onEveryNode(IndependentMasters m) {
        LockClient a = RedlockNodesSupport.builder(m).build();
        Lease lease = a.lock("close").acquire();
        a.close();
        assertThat(lease.isValid()).isFalse();
        lease.release(); // quiet after close
        // close's release is done once a quorum released (a node that is down must not hold it up), so the last
        // node's delete may still be on its way: each node must be free within 2 s, not at this very instant
        for (RedisServer server : m.servers()) {
            RedlockNodesSupport.awaitFree(server, "close");
        }
        assertThatThrownBy(() -> a.lock("close")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aNodeDown_atBuildAndAtRelease_doesNotFailTheClient(IndependentMasters m) {
        m.server(0).kill();
        try (LockClient a = RedlockNodesSupport.builder(m).build()) {
            Lease lease = a.lock("node-down").acquire();
            m.server(0).start();
            m.server(1).kill();
            lease.release(); // node 1 down: still released on a quorum (0 does not have it, 2 does)
            Lease again = a.lock("node-down").tryAcquire(Duration.ZERO).orElseThrow();
            again.release();
        } finally {
            if (!m.server(0).isRunning()) {
                m.server(0).start();
            }
            if (!m.server(1).isRunning()) {
                m.server(1).start();
            }
        }
        m.server(1).kill();
        m.server(2).kill();
        try {
            assertThatThrownBy(() -> RedlockNodesSupport.builder(m).build())
                    .isInstanceOf(LockConnectionException.class)
                    .hasMessageContaining("Redlock needs 2 of 3 nodes, only 1 could be reached");
        } finally {
            m.server(1).start();
            m.server(2).start();
        }
    }
}
