package dev.dlock.internal.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Clock drift within the allowance: a lease's validity is its lease time from before the acquire was
 * sent, less 1% + 2 ms, so the nodes' keys outlive it as long as the nodes' clocks run fast by at most
 * 1%. Emulated on real servers: right after the acquire every node's key gets the expiry a node whose
 * clock runs fast by {@code 1 - rate} would give it (from the send time, read back from the lease's own
 * deadline, rounded up), and then, until the lease is no longer valid, each check reads the keys first
 * and the lease's validity after: a quorum of keys gone and the lease still valid afterwards means that
 * the lease outlived its lock. At 1% none does; at 10%, beyond the allowance, the same check catches it
 * (the negative control that shows the check can fail).
 */
final class RedlockDriftIT {
    private static final long LEASE_MILLIS = 3_000;

    @RegisterExtension
    static final TopologyExtension<IndependentMasters> MASTERS =
            IndependentMasters.builder().masters(3).extension();

    @Test
    void nodeClocksFastWithinTheAllowance_neverExpireTheLockWhileTheLeaseIsValid(IndependentMasters m) {
        Checks checks = run(m, "drift-within", 0.99);
        assertThat(checks.total).as("checks while valid").isGreaterThan(10);
        assertThat(checks.violations)
                .as("checks that found the lock gone while the lease was valid")
                .isZero();
    }

    @Test
    void nodeClocksFastBeyondTheAllowance_areCaughtByTheSameCheck(IndependentMasters m) {
        Checks checks = run(m, "drift-beyond", 0.90);
        assertThat(checks.violations)
                .as("checks that found the lock gone while the lease was valid")
                .isPositive();
    }

    private record Checks(int total, int violations) {}

    private static Checks run(IndependentMasters m, String name, double rate) {
        try (LockClient client = RedlockNodesSupport.builder(m).build()) {
            Lease lease = client.lock(name)
                    .tryAcquire(Duration.ZERO, Duration.ofMillis(LEASE_MILLIS))
                    .orElseThrow();
            long remaining = lease.remaining().toNanos();
            long deadline = System.nanoTime() + remaining; // read after: never before the real deadline
            long leaseNanos = LEASE_MILLIS * 1_000_000L;
            long sent = deadline - (leaseNanos - leaseNanos / 100 - 2_000_000L);
            long expiry = sent + (long) (rate * leaseNanos);
            String key = RedlockScripts.keys("dlock", name)[0];
            for (RedisServer server : m.servers()) {
                long millis = Math.max(1, (expiry - System.nanoTime() + 999_999) / 1_000_000); // rounded up
                assertThat(server.command("PEXPIRE", key, Long.toString(millis)))
                        .isEqualTo(1L);
            }
            int total = 0;
            int violations = 0;
            while (true) {
                int present = 0;
                for (RedisServer server : m.servers()) {
                    if (RedlockNodesSupport.ownerOn(server, name) != null) {
                        present++;
                    }
                }
                if (!lease.isValid()) {
                    break;
                }
                total++;
                if (present < 2) {
                    violations++;
                }
            }
            return new Checks(total, violations);
        }
    }
}
