package dev.dlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * W14 (multi-locks over overlapping pairs, 8 client processes) against a real redis-server, dlock and Redisson each,
 * in short windows: every peer completes holds with no exclusion violation seen across the processes.
 */
final class ProcessesRunIT {

    @Test
    void multiLocksInEightProcesses_neverOverlap_forBothPeers() {
        Settings settings = Settings.quick().withPhaseMillis(1_000, 2_000);
        try (RedisServer server = RedisServer.builder().start()) {
            Deployment deployment = Deployment.standalone(server);
            // As in FamilyRunIT: Redisson with the names as drawn may see no hold at all in a short window; sorted,
            // it shows that the check passes a real multi-lock.
            for (Peer peer : List.of(Peer.DLOCK_MULTI, Peer.REDISSON_MULTI_SORTED)) {
                Measurement m = ProcessesRun.run(Workload.W14, peer, deployment, settings, 1);

                assertThat(m.failure).as(peer.label).isNull();
                assertThat(m.get(Metric.PAIRS_PER_SECOND)).as(peer.label).isGreaterThan(0);
                assertThat(m.get(Metric.VIOLATIONS)).as(peer.label).isZero();
                assertThat(m.get(Metric.UNLOCK_P50)).as(peer.label).isPositive();
                deployment.flushAll();
            }
        }
    }
}
