package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.spi.RedisUri;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The watchdog renews every lease of a client in batches, and reports a lease lost at its next round. */
public abstract class WatchdogContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected WatchdogContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perMethod();

    @Test
    void renewsEveryLeaseOfAClient_inOneRoundTripPerThousand_perInterval() throws Exception {
        if (!redis.allSeven()) {
            redis.skipOn(
                    RedisUri.Topology.CLUSTER,
                    "before Redis 7 a script's keys share one slot, so renewal batches hold one slot's leases;"
                            + " 2500 names spread over about 2300 slots take about one call per slot and interval");
        }
        int leases = 2500;
        long leaseMillis = 3000; // renewal interval 1 s; 1.5 s lost leases on a loaded host
        try (LockClient client =
                builder(redis.uri()).leaseTime(Duration.ofMillis(leaseMillis)).build()) {
            List<Lease> held = new ArrayList<>();
            List<CompletableFuture<Lease>> pending = new ArrayList<>();
            for (int i = 0; i < leases; i++) {
                pending.add(client.lock("many-" + i).acquireAsync(Duration.ZERO));
            }
            for (CompletableFuture<Lease> p : pending) {
                held.add(p.get(30, TimeUnit.SECONDS));
            }
            redis.commandOnMasters("CONFIG", "RESETSTAT");
            long start = System.nanoTime();
            Thread.sleep(2 * leaseMillis); // several renewal intervals, longer than the lease itself
            long calls = ScriptCalls.of(redis);
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            long intervals = elapsedMillis / (leaseMillis / 3) + 1;
            // 3 batches per interval: 1000 + 1000 + 500 on one server, one per master of a 3-master Redis 7
            // cluster (about 833 each); one call per lease would be 2500 per interval
            assertThat(calls).isBetween(3L, 3 * intervals);
            assertThat(held).allMatch(Lease::isValid);
            assertThat(redis.command("PTTL", "dlock:{many-0}")).isInstanceOf(Long.class);
            assertThat((Long) redis.command("PTTL", "dlock:{many-2499}")).isPositive();
            for (Lease lease : held) {
                lease.release();
            }
        }
    }

    @Test
    void renewalThatFindsTheKeyGone_marksTheLeaseLostAtOnce_andRunsItsListeners() throws Exception {
        long leaseMillis = 3000; // renewal interval 1 s
        try (LockClient mine = builder(redis.uri())
                        .leaseTime(Duration.ofMillis(leaseMillis))
                        .build();
                LockClient other = connect(redis.uri())) {
            Lease lease = mine.lock("gone").acquire();
            CompletableFuture<LockLostException> heard = new CompletableFuture<>();
            lease.onLost(heard::complete);
            redis.command("DEL", "dlock:{gone}"); // an operator's force release, or a failover
            Lease next = other.lock("gone").tryAcquire(Duration.ZERO).orElseThrow();
            long deleted = System.nanoTime();

            LockLostException loss =
                    heard.get(Timing.scaled(Duration.ofMillis(3000)).toMillis(), TimeUnit.MILLISECONDS);
            long heardAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deleted);
            // at the next renewal round (every lease/3), long before the lease would have run out
            assertThat(heardAfter)
                    .isLessThan(leaseMillis / 3
                            + Timing.scaled(Duration.ofMillis(700)).toMillis());
            assertThat(loss.fencingToken()).isEqualTo(lease.fencingToken());
            assertThat(lease.isValid()).isFalse();
            assertThat(lease.whenLost()).isCompleted();
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
            assertThat(other.lock("gone").info().holderId()).isPresent();
            assertThat(next.isValid()).isTrue();
            next.release();
        }
    }

    @Test
    void leaseWithExplicitLeaseTime_isNotRenewed() throws Exception {
        try (LockClient client = builder(redis.uri())
                .leaseTime(Duration.ofMillis(600)) // renewal rounds every 200 ms
                .build()) {
            Lease fixed = client.lock("fixed")
                    .tryAcquire(Duration.ZERO, Duration.ofMillis(1000))
                    .orElseThrow();
            redis.commandOnMasters("CONFIG", "RESETSTAT");
            Thread.sleep(700);
            assertThat(ScriptCalls.of(redis)).as("no renewal of a fixed lease").isZero();
            Thread.sleep(600);
            assertThat(redis.command("EXISTS", "dlock:{fixed}")).isEqualTo(0L);
            assertThat(fixed.isValid()).isFalse();
        }
    }
}
