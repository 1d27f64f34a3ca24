package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The recipe the "replica acknowledgements" negative control builds on: a write made while the only replica is held
 * back exists on the master only, and a failover to that replica loses it.
 */
final class SentinelHoldBackIT {

    private static final Duration FAILOVER = Timing.scaled(Duration.ofSeconds(30));

    @Test
    void writeWhileReplicaHeldBack_isLostByFailover_butArrivesIfReleasedFirst() {
        long started = System.nanoTime();
        try (SentinelSetup setup = SentinelSetup.builder().replicas(1).start()) {
            System.out.printf(
                    "SentinelSetup (1 master, 1 replica, 3 sentinels) started in %d ms on %s%n",
                    (System.nanoTime() - started) / 1_000_000,
                    setup.initialMaster().version());
            RedisServer master = setup.initialMaster();
            RedisServer replica = setup.initialReplicas().get(0);
            master.command("SET", "before", "1");
            setup.awaitReplicasInSync();

            // Control: released while the master lives, the replica reconnects and catches up.
            try (SentinelSetup.HeldBackReplica hold = setup.holdBack(replica)) {
                assertThat(hold.replica()).isSameAs(replica);
                assertThat(NodeSupport.info(master, "replication")).containsEntry("connected_slaves", "0");
                master.command("SET", "caught-up", "1");
            }
            setup.awaitReplicasInSync();
            assertThat(replica.command("GET", "caught-up")).isEqualTo("1");

            SentinelSetup.HeldBackReplica hold = setup.holdBack(replica);
            master.command("SET", "lost", "1");
            assertThat(master.command("GET", "lost")).isEqualTo("1");
            master.kill();
            hold.release();
            RedisServer promoted = setup.awaitFailover(FAILOVER);

            assertThat(promoted).isSameAs(replica);
            assertThat(promoted.command("GET", "before")).isEqualTo("1");
            assertThat(promoted.command("GET", "caught-up")).isEqualTo("1");
            assertThat(promoted.command("GET", "lost")).isNull();
        }
    }
}
