package dev.dlock.internal.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Quorum masks over 5 independent masters, as go-redsync tests them: for every one of the 32 subsets of
 * nodes down, an acquire succeeds if and only if at least 3 nodes are up; with fewer it throws {@link
 * LockConnectionException} (never an empty result, also with a wait); with a holder on a quorum a second
 * client gets an empty result; and the release, sent to every node, does not fail because nodes are down.
 * The masks are walked in Gray-code order, so each step brings one node down or up: nodes 0, 2 and 4 go
 * down by SIGKILL (and come back empty), nodes 1 and 3 by SIGSTOP (they hang until the command timeout).
 */
final class RedlockQuorumIT {
    @RegisterExtension
    static final TopologyExtension<IndependentMasters> MASTERS =
            IndependentMasters.builder().masters(5).extension();

    @Test
    void everyMaskOfNodesDown_grantsIffAQuorumIsUp(IndependentMasters masters) {
        boolean[] down = new boolean[5];
        try (LockClient a = RedlockNodesSupport.builder(masters).build();
                LockClient b = RedlockNodesSupport.builder(masters).build()) {
            for (int step = 0; step < 32; step++) {
                int mask = step ^ (step >> 1);
                for (int i = 0; i < 5; i++) {
                    boolean wanted = (mask >> i & 1) == 1;
                    if (wanted != down[i]) {
                        set(masters.server(i), i, wanted);
                        down[i] = wanted;
                    }
                }
                int up = 5 - Integer.bitCount(mask);
                String name = "mask-" + mask;
                if (up >= 3) {
                    Lease lease = a.lock(name)
                            .tryAcquire(Duration.ZERO, Duration.ofSeconds(30))
                            .orElseThrow(() -> new AssertionError("no lease with " + up + " nodes up, mask " + mask));
                    int holding = 0; // every up node that answered in time; a quorum at least
                    for (int i = 0; i < 5; i++) {
                        if (!down[i]
                                && ((RedlockLease) lease)
                                        .owner()
                                        .equals(RedlockNodesSupport.ownerOn(masters.server(i), name))) {
                            holding++;
                        }
                    }
                    assertThat(holding).as("nodes holding, mask %d", mask).isGreaterThanOrEqualTo(3);
                    Optional<Lease> other = b.lock(name).tryAcquire(Duration.ZERO);
                    assertThat(other)
                            .as("a second client while a quorum is held, mask %d", mask)
                            .isEmpty();
                    lease.release(); // must not throw with nodes down
                    for (int i = 0; i < 5; i++) {
                        if (!down[i]) { // the release returns once a quorum confirmed; the rest follow
                            RedlockNodesSupport.awaitFree(masters.server(i), name);
                        }
                    }
                    Lease next = b.lock(name)
                            .tryAcquire(Duration.ZERO)
                            .orElseThrow(() -> new AssertionError("free after the release, mask " + mask));
                    assertThat(next.fencingToken()).as("token, mask %d", mask).isGreaterThan(lease.fencingToken());
                    next.release();
                } else {
                    assertThatThrownBy(() -> a.lock(name).tryAcquire(Duration.ZERO))
                            .as("mask %d, %d up", mask, up)
                            .isInstanceOf(LockConnectionException.class)
                            .hasMessageContaining("Redlock needs 3 of 5 nodes")
                            .hasMessageContaining("only " + up + " answered");
                    if (up == 2) { // also with a wait: a wait cannot make nodes answer
                        assertThatThrownBy(() -> b.lock(name).tryAcquire(Duration.ofMillis(300)))
                                .isInstanceOf(LockConnectionException.class);
                    }
                }
            }
        } finally {
            for (int i = 0; i < 5; i++) {
                if (down[i]) {
                    set(masters.server(i), i, false);
                }
            }
        }
    }

    /** Node i down or up: even nodes by kill and start, odd ones by pause and resume. */
    private static void set(RedisServer server, int i, boolean down) {
        if (i % 2 == 0) {
            if (down) {
                server.kill();
            } else {
                server.start();
            }
        } else if (down) {
            server.pause();
        } else {
            server.resume();
        }
    }
}
