package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockAdmin;
import dev.dlock.LockAdmin.ForcedUnlock;
import dev.dlock.LockAdmin.LockState;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.LockServerException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link LockAdmin} from Java, as an operator (or Redisson's {@code forceUnlock}) uses it: status with
 * holder, token and waiters; list by glob across both key forms; force unlock that hands the lock to
 * the oldest waiter and makes the old holder lose its lease at its next renewal; purge.
 */
public abstract class AdminContract extends TransportContract {
    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perClass();

    @Test
    void status_showsHolderTokenRemainingAndWaiters() throws Exception {
        try (LockClient holder = connect(redis.uri());
                LockClient waiter = connect(redis.uri())) {
            LockAdmin admin = holder.admin();
            assertThat(admin.status("st").isHeld()).isFalse();
            Lease lease = holder.lock("st").acquire();
            CompletableFuture<Lease> queued = waiter.lock("st").acquireAsync(Duration.ofSeconds(30));
            WaitQueue.awaitSize(redis, "st", 1);
            LockState state = admin.status("st");
            assertThat(state.holderId()).contains(holder.clientId() + ":lease-1");
            assertThat(state.fencingToken()).isEqualTo(lease.fencingToken());
            assertThat(state.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
            assertThat(state.waiters()).isEqualTo(1);
            lease.release();
            queued.get(10, TimeUnit.SECONDS).release();
        }
    }

    @Test
    void list_matchesAGlobOverNames_includingNamesThatStartWithABrace() {
        try (LockClient client = connect(redis.uri())) {
            Lease a = client.lock("job-1").acquire();
            Lease b = client.lock("job-22").acquire();
            Lease c = client.lock("}odd").acquire();
            Lease d = client.lock("other").acquire();
            List<String> jobs =
                    client.admin().list("job-?").stream().map(LockState::name).toList();
            assertThat(jobs).containsExactly("job-1");
            assertThat(client.admin().list("*").stream().map(LockState::name))
                    .contains("job-1", "job-22", "}odd", "other");
            assertThat(client.admin().list("}*").stream().map(LockState::name)).containsExactly("}odd");
            for (Lease lease : new Lease[] {a, b, c, d}) {
                lease.release();
            }
            assertThat(client.admin().list("job-*")).isEmpty();
        }
    }

    @Test
    void forceUnlock_handsTheLockToTheOldestWaiter_andTheOldHolderLosesItsLease() throws Exception {
        try (LockClient holder =
                        builder(redis.uri()).leaseTime(Duration.ofMillis(600)).build();
                LockClient waiter = connect(redis.uri())) {
            Lease lease = holder.lock("stuck").acquire();
            CompletableFuture<LockLostException> lost = lease.whenLost();
            CompletableFuture<Lease> next = waiter.lock("stuck").acquireAsync(Duration.ofSeconds(30));
            WaitQueue.awaitSize(redis, "stuck", 1);

            ForcedUnlock forced = waiter.admin().forceUnlock("stuck");
            assertThat(forced.removed().orElseThrow().fencingToken()).isEqualTo(lease.fencingToken());
            assertThat(forced.handedOver()).isTrue();
            Lease taken = next.get(10, TimeUnit.SECONDS);
            assertThat(taken.fencingToken()).isGreaterThan(lease.fencingToken());
            assertThat(lost.get(5, TimeUnit.SECONDS)).hasMessageContaining("stuck");
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
            assertThat(waiter.admin().status("stuck").holderId())
                    .hasValueSatisfying(id -> assertThat(id).startsWith(waiter.clientId()));
            taken.release();
            assertThat(waiter.admin().forceUnlock("stuck").removed())
                    .as("free: nothing removed")
                    .isEmpty();
        }
    }

    @Test
    void purge_deletesEveryKeyOfTheLock_andKeyBesideSharesItsSlot() {
        try (LockClient client = connect(redis.uri())) {
            client.lock("tmp").acquire().release();
            assertThat(redis.command("EXISTS", "dlock:{tmp}:fence")).isEqualTo(1L);
            assertThat(client.admin().purge("tmp")).isEqualTo(1L);
            assertThat(redis.command("EXISTS", "dlock:{tmp}:fence")).isEqualTo(0L);
            assertThat(client.admin().keyBeside("tmp", "data")).isEqualTo("dlock:{tmp}:data");
        }
    }

    @Test
    void aKeyOfAnotherType_isReported_andNothingIsDeleted() {
        redis.command("SET", "dlock:{typed-admin}", "v");
        try (LockClient client = connect(redis.uri())) {
            assertThatThrownBy(() -> client.admin().forceUnlock("typed-admin"))
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{typed-admin}");
            assertThat(redis.command("GET", "dlock:{typed-admin}")).isEqualTo("v");
        }
    }
}
