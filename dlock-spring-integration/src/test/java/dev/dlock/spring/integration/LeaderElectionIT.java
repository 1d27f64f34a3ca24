package dev.dlock.spring.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Spring Integration's own {@code LockRegistryLeaderInitiator} elects one leader among processes on a
 * {@link DlockLockRegistry}, and leadership moves when the leader's JVM is killed or stops.
 */
final class LeaderElectionIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final long LEASE_MS = 2000;

    private static Duration scaled(long millis) {
        return Timing.scaled(Duration.ofMillis(millis));
    }

    private static JvmProcess candidate(String id) {
        return JvmProcess.start(LeaderMain.class, redis.server().uri(), id, Long.toString(LEASE_MS));
    }

    /** Starts {@code a}, waits until it leads, then starts {@code b} and waits until it has tried once. */
    private static void withLeaderAndFollower(Scenario scenario) throws Exception {
        try (JvmProcess leader = candidate("a")) {
            leader.awaitLine("GRANTED a", scaled(30_000));
            try (JvmProcess follower = candidate("b")) {
                follower.awaitLine("READY b", scaled(30_000));
                Thread.sleep(scaled(500).toMillis());
                scenario.run(leader, follower);
            }
        }
    }

    private interface Scenario {
        void run(JvmProcess leader, JvmProcess follower) throws Exception;
    }

    @Test
    void sigkillOfTheLeader_movesLeadershipWithinTheLeaseTime() throws Exception {
        withLeaderAndFollower((leader, follower) -> {
            Thread.sleep(scaled(LEASE_MS).toMillis()); // a full lease more: the leader's renewals keep it
            assertThat(follower.stdout()).doesNotContain("GRANTED");

            leader.kill();
            long killed = System.nanoTime();
            follower.awaitLine("GRANTED b", scaled(LEASE_MS + 10_000));
            long movedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            // The key outlives the dead leader by at most one lease; the follower's wait is woken when
            // it runs out, plus one heartbeat of the initiator and scheduling on a loaded host.
            System.out.println("leadership moved " + movedAfter + " ms after the leader was killed");
            assertThat(movedAfter).isLessThanOrEqualTo(LEASE_MS + scaled(1000).toMillis());
        });
    }

    @Test
    void stopOfTheLeader_handsLeadershipOverWithoutWaitingForTheLease() throws Exception {
        withLeaderAndFollower((leader, follower) -> {
            assertThat(follower.stdout()).doesNotContain("GRANTED");
            leader.send("stop");
            long stopped = System.nanoTime();
            follower.awaitLine("GRANTED b", scaled(LEASE_MS + 10_000));
            long movedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);
            // The unlock releases the key and hands it to the waiting follower: no lease runs out.
            System.out.println("leadership moved " + movedAfter + " ms after the leader was stopped");
            assertThat(movedAfter).isLessThan(LEASE_MS);
            assertThat(leader.waitFor(scaled(10_000))).isZero();
            assertThat(leader.stdout()).contains("REVOKED a", "STOPPED a");
        });
    }
}
