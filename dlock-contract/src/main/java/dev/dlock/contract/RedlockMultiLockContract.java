package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The multi-lock on a Redlock client over three independent masters, on the transport under test: each
 * name is held on a quorum and released on every node, a multi-lock excludes a plain lock on each of its
 * names and a timed-out one holds none, and multi-locks whose names are given in opposite orders never
 * deadlock (a hang fails at the workers' timeout) and never overlap. The rest of the multi-lock's
 * contract is the same code over the lock of one Redis ({@link MultiLockContract}).
 */
public abstract class RedlockMultiLockContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected RedlockMultiLockContract() {}

    @RegisterExtension
    static final TopologyExtension<IndependentMasters> masters =
            IndependentMasters.builder().masters(3).extension();

    private LockClient client(IndependentMasters m) {
        return LockClient.builder()
                .redlock(m.uris().toArray(String[]::new))
                .transport(transport())
                .leaseTime(Duration.ofSeconds(15))
                .commandTimeout(
                        Duration.ofSeconds(5)) // no node is killed here; the first connect on a busy host may be slow
                .build();
    }

    private static int nodesHolding(IndependentMasters m, String name) {
        int holding = 0;
        for (RedisServer server : m.servers()) {
            if (server.command("EXISTS", "dlock:{" + name + "}:redlock").equals(1L)) {
                holding++;
            }
        }
        return holding;
    }

    @Test
    void eachNameIsHeldOnAQuorum_excludesAPlainLock_andIsReleasedOnEveryNode(IndependentMasters m)
            throws InterruptedException {
        try (LockClient a = client(m);
                LockClient b = client(m)) {
            Lease multi = a.multiLock("rb", "ra").acquire();
            assertThat(multi.fencingTokens().keySet()).containsExactly("ra", "rb");
            for (String name : List.of("ra", "rb")) {
                assertThat(nodesHolding(m, name)).as(name).isGreaterThanOrEqualTo(2);
                assertThat(b.lock(name).tryAcquire(Duration.ZERO)).as(name).isEmpty();
            }
            multi.release();
            assertThat(nodesHolding(m, "ra") + nodesHolding(m, "rb")).isZero();

            Lease plain = b.lock("rb").acquire();
            assertThat(a.multiLock("ra", "rb").tryAcquire(Duration.ofMillis(300)))
                    .isEmpty();
            // it gives back what it took on the callback executor, just after it returns (MultiAcquire): one node's
            // release was once still on its way when this was read at once
            long deadline =
                    System.nanoTime() + Timing.scaled(Duration.ofSeconds(5)).toNanos();
            while (nodesHolding(m, "ra") > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(nodesHolding(m, "ra"))
                    .as("the timed-out multi-lock holds none")
                    .isZero();
            plain.release();
        }
    }

    @Test
    void multiLocksInOppositeOrders_fourThreadsOfTwoClients_neverDeadlockNorOverlap(IndependentMasters m)
            throws Exception {
        try (LockClient a = client(m);
                LockClient b = client(m)) {
            Map<String, AtomicInteger> inside = Map.of("p", new AtomicInteger(), "q", new AtomicInteger());
            AtomicInteger overlaps = new AtomicInteger();
            Workers.run("redlock-opposite", 4, Duration.ofSeconds(60), worker -> {
                String[] order = worker % 2 == 0 ? new String[] {"p", "q"} : new String[] {"q", "p"};
                DistributedLock multi = (worker < 2 ? a : b).multiLock(order);
                for (int i = 0; i < 10; i++) {
                    try (Lease lease = multi.acquire()) {
                        for (String name : order) {
                            if (inside.get(name).incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                        }
                        Thread.sleep(2);
                        for (String name : order) {
                            inside.get(name).decrementAndGet();
                        }
                    }
                }
            });
            assertThat(overlaps.get()).as("overlaps").isZero();
        }
    }
}
