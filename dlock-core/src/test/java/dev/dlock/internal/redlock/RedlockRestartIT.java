package dev.dlock.internal.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.Timing;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A node that crashes and restarts without persistence, over 3 masters without AOF (a restarted node
 * comes back empty). Restarted at once, it lets a second client take a quorum while the first still
 * holds its lease: the deliberate negative test of docs/redlock.md's delayed-restart rule. Kept down
 * for a lease time, it does not. And the fencing counters: a minority node that restarts empty between
 * two holders does not make the second token smaller or equal, because the first acquire wrote its
 * token back to every node that answered it before it returned. Each test uses its own lock name; the
 * nodes are all up again at the end of each.
 */
final class RedlockRestartIT {
    // long enough that the restarts of a loaded host fit inside it; the delayed test waits one of it
    private static final Duration LEASE = Timing.scaled(Duration.ofSeconds(3));

    @RegisterExtension
    final TopologyExtension<IndependentMasters> masters =
            IndependentMasters.builder().masters(3).aof(false).extension();

    @Test
    void immediateRestartWithoutPersistence_letsASecondHolderIn_whileTheFirstHolds(IndependentMasters m) {
        try (LockClient a = RedlockNodesSupport.builder(m).build();
                LockClient b = RedlockNodesSupport.builder(m).build()) {
            m.server(2).kill();
            Lease first = a.lock("immediate").tryAcquire(Duration.ZERO, LEASE).orElseThrow(); // on nodes 0 and 1
            m.server(2).start(); // back, empty: it never saw the first hold
            m.server(0).restart(); // crash and immediate restart, empty: the rule broken

            Optional<Lease> second = b.lock("immediate").tryAcquire(Duration.ZERO, LEASE); // nodes 0 and 2
            boolean firstStillValid = first.isValid();
            System.out.printf(
                    "REDLOCK-RESTART immediate restart: second holder in while the first had %d ms of %d left%n",
                    first.remaining().toMillis(), LEASE.toMillis());

            assertThat(second)
                    .as("a second holder on the restarted node and the one that missed the first")
                    .isPresent();
            assertThat(firstStillValid)
                    .as("while the first lease is still valid: two holders")
                    .isTrue();
            assertThat(second.get().fencingToken())
                    .as("nor do tokens help here: both quorums met only nodes without the first token")
                    .isEqualTo(first.fencingToken());
            // the clients' close releases both (a release could find a fixed lease ended already)
        }
    }

    @Test
    void delayedRestart_forALeaseTime_keepsASingleHolder(IndependentMasters m) throws InterruptedException {
        try (LockClient a = RedlockNodesSupport.builder(m).build();
                LockClient b = RedlockNodesSupport.builder(m).build()) {
            m.server(2).kill();
            Lease first = a.lock("delayed").tryAcquire(Duration.ZERO, LEASE).orElseThrow(); // on nodes 0 and 1
            m.server(2).start();
            m.server(0).kill(); // crash; the rule: stay down for a lease time
            long crashed = System.nanoTime();

            int triesWhileValid = 0;
            Lease second = null;
            while (second == null && System.nanoTime() - crashed < LEASE.toNanos()) {
                Optional<Lease> taken = b.lock("delayed").tryAcquire(Duration.ZERO, LEASE);
                boolean firstValid = first.isValid(); // read after: taken and valid then means both at once
                assertThat(taken.isPresent() && firstValid)
                        .as("a second holder while the first is valid, node 0 down")
                        .isFalse();
                if (firstValid) {
                    triesWhileValid++;
                }
                second = taken.orElse(null);
                Thread.sleep(20);
            }
            m.server(0).start(); // a lease time after the crash, empty: what it held has expired everywhere
            if (second == null) {
                second = b.lock("delayed")
                        .tryAcquire(Timing.scaled(Duration.ofSeconds(2)), LEASE)
                        .orElseThrow(() -> new AssertionError("free once the first lease ran out"));
            }
            assertThat(first.isValid())
                    .as("the first lease ended before the second began")
                    .isFalse();
            assertThat(triesWhileValid)
                    .as("attempts while the first lease was valid")
                    .isGreaterThan(3);
            // the client's close releases it (a release could find a fixed lease ended already)
        }
    }

    @Test
    void aMinorityNodeRestartedEmpty_betweenHolders_doesNotLowerTheNextToken(IndependentMasters m) {
        String name = "fenced";
        try (LockClient client = RedlockNodesSupport.builder(m).build()) {
            m.server(2).kill(); // the first hold misses node 2: counters 1, 1, 0
            client.lock(name).tryAcquire(Duration.ZERO).orElseThrow().release();
            m.server(2).start();

            Lease second = client.lock(name).tryAcquire(Duration.ZERO).orElseThrow(); // counters 2, 2, 1
            long token = second.fencingToken();
            assertThat(token).isEqualTo(2);
            for (int i = 0; i < 3; i++) {
                assertThat(RedlockNodesSupport.counterOn(m.server(i), name))
                        .as("node %d's counter when the acquire returned (written back)", i)
                        .isEqualTo(token);
            }
            second.release();

            m.server(0).restart(); // a minority restarts empty between the holders
            m.server(1).kill(); // and the next quorum is forced onto nodes 0 and 2
            Lease third = client.lock(name).tryAcquire(Duration.ZERO).orElseThrow();
            assertThat(third.fencingToken())
                    .as("the next token, from the empty node 0 and node 2, which had the token written back")
                    .isGreaterThan(token);
            third.release();
            m.server(1).start();
        }
    }
}
