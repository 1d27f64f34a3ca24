package dev.dlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.contract.ScriptCalls;
import dev.dlock.testkit.ClusterSetup;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The watchdog on a Redis 7 cluster renews a node's leases in one call across its slots, and when a
 * slot moves off the node it thought served it, renews that round one slot at a time, losing no lease.
 */
final class LettuceClusterRenewalIT {
    private static final long LEASE_MILLIS = 1500; // a renewal round every 500 ms

    @RegisterExtension
    static final TopologyExtension<ClusterSetup> cluster =
            ClusterSetup.builder().masters(3).extension();

    @Test
    void oneCallPerNodeAndRound_andASlotMovedAwayLosesNoLease() throws Exception {
        ClusterSetup setup = cluster.get();
        List<RedisServer> masters = setup.masters();
        assertThat(masters.get(0).version())
                .as("cross-slot scripts need Redis 7")
                .doesNotStartWith("6.");
        try (LockClient client = LockClient.builder()
                .redisUri(setup.seedUri())
                .transport(new LettuceTransportFactory())
                .leaseTime(Duration.ofMillis(LEASE_MILLIS))
                .build()) {
            List<Lease> held = new ArrayList<>();
            Set<Integer> slots = new HashSet<>();
            for (int i = 0; i < 60; i++) {
                held.add(client.lock("spread-" + i).acquire());
                slots.add(ClusterSetup.slotOf("dlock:{spread-" + i + "}"));
            }
            assertThat(slots).as("names over many slots").hasSizeGreaterThan(50);

            masters.forEach(m -> m.command("CONFIG", "RESETSTAT"));
            long start = System.nanoTime();
            Thread.sleep(2000);
            long rounds = (System.nanoTime() - start) / 1_000_000 / (LEASE_MILLIS / 3) + 1;
            for (RedisServer master : masters) {
                // one renewal per round on each master (plus the first EVAL of the cross-slot script);
                // by slot it would be about 20 per round
                assertThat(ScriptCalls.of(master)).isBetween(1L, rounds + 1);
            }

            // Move one held name's slot to another master behind the client's back: its view still
            // names the old node until a MOVED or the periodic refresh (10 s).
            String moved = "dlock:{spread-7}";
            int slot = ClusterSetup.slotOf(moved);
            RedisServer from = setup.nodeForSlot(slot);
            RedisServer to = masters.stream().filter(m -> m != from).findFirst().orElseThrow();
            assertThat(setup.migrateSlot(slot, from, to)).isPositive();

            // Several lease times: the old node's call now fails on the moved key; renewed by slot.
            Thread.sleep(Timing.scaled(Duration.ofMillis(3 * LEASE_MILLIS)).toMillis());
            assertThat(held).allMatch(Lease::isValid);
            assertThat((Long) to.command("PTTL", moved)).isBetween(1L, LEASE_MILLIS);
            for (int i = 0; i < held.size(); i++) {
                String key = "dlock:{spread-" + i + "}";
                RedisServer owner = setup.nodeForSlot(ClusterSetup.slotOf(key));
                assertThat((Long) owner.command("PTTL", key)).as(key).isPositive();
            }
            for (Lease lease : held) {
                lease.release();
            }
        }
    }
}
