package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockAdmin;
import dev.dlock.LockAdmin.ForcedUnlock;
import dev.dlock.LockAdmin.Holder;
import dev.dlock.LockClient;
import dev.dlock.LockInfo;
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
 * the oldest waiter and makes the old holder lose its lease at its next renewal; purge. The same over
 * semaphores: kind, capacity, holders with their permits and the queue; force unlock removes every
 * holder and grants the queue.
 */
public abstract class AdminContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected AdminContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perClass();

    @Test
    void status_showsHolderTokenRemainingAndWaiters() throws Exception {
        try (LockClient holder = connect(redis.uri());
                LockClient waiter = connect(redis.uri())) {
            LockAdmin admin = holder.admin();
            assertThat(admin.status("st").isLocked()).isFalse();
            Lease lease = holder.lock("st").acquire();
            CompletableFuture<Lease> queued = waiter.lock("st").acquireAsync(Duration.ofSeconds(30));
            WaitQueue.awaitSize(redis, "st", 1);
            LockInfo state = admin.status("st");
            assertThat(state.holderId()).contains(holder.clientId() + ":lease-1");
            assertThat(state.fencingToken()).isEqualTo(lease.fencingToken());
            assertThat(state.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
            assertThat(state.waiters()).isEqualTo(1);
            assertThat(state.kind()).isEqualTo(LockAdmin.MUTEX);
            LockInfo info = waiter.lock("st").info();
            assertThat(info.kind()).isEqualTo(LockAdmin.MUTEX);
            assertThat(info.holders()).singleElement().satisfies(h -> {
                assertThat(h.ownerId()).isEqualTo(state.holderId().orElseThrow());
                assertThat(h.fencingToken()).isEqualTo(lease.fencingToken());
                assertThat(h.weight()).isEqualTo(1);
            });
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
                    client.admin().list("job-?").stream().map(LockInfo::name).toList();
            assertThat(jobs).containsExactly("job-1");
            assertThat(client.admin().list("*").stream().map(LockInfo::name))
                    .contains("job-1", "job-22", "}odd", "other");
            assertThat(client.admin().list("}*").stream().map(LockInfo::name)).containsExactly("}odd");
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

    @Test
    void status_ofASemaphore_showsKindCapacityHoldersWithPermitsAndTheQueue() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Lease two = a.semaphore("sem-st", 3).acquire(2);
            Lease one = b.semaphore("sem-st", 3).acquire();
            CompletableFuture<Lease> queued = b.semaphore("sem-st", 3).acquireAsync(2, Duration.ofSeconds(30));
            WaitQueue.awaitShared(redis, "sem-st", 1);

            LockInfo state = a.admin().status("sem-st");
            assertThat(state.kind()).isEqualTo("semaphore");
            assertThat(state.capacity()).isEqualTo(3);
            assertThat(state.used()).isEqualTo(3);
            assertThat(state.holders()).extracting(Holder::weight).containsExactly(2, 1);
            assertThat(state.holders())
                    .extracting(Holder::fencingToken)
                    .containsExactly(two.fencingToken(), one.fencingToken());
            assertThat(state.holders().get(0).ownerId()).startsWith(a.clientId() + ":lease-");
            assertThat(state.holders().get(1).ownerId()).startsWith(b.clientId() + ":lease-");
            assertThat(state.holders())
                    .allSatisfy(
                            h -> assertThat(h.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30)));
            assertThat(state.holderId()).contains(state.holders().get(1).ownerId());
            assertThat(state.fencingToken()).isEqualTo(one.fencingToken());
            assertThat(state.waiters()).isEqualTo(1);
            assertThat(state.queue()).singleElement().satisfies(w -> {
                assertThat(w.ownerId()).startsWith(b.clientId() + ":lease-");
                assertThat(w.weight()).isEqualTo(2);
            });
            assertThat(a.admin().status("st-mutex").kind()).isEqualTo(LockAdmin.MUTEX);

            two.release();
            queued.get(10, TimeUnit.SECONDS).release();
            one.release();
            LockInfo free = a.admin().status("sem-st");
            assertThat(free.isLocked()).isFalse();
            assertThat(free.holders()).isEmpty();
            assertThat(free.kind()).isEqualTo("semaphore");
            assertThat(free.fencingToken()).as("the last token issued").isGreaterThan(one.fencingToken());
        }
    }

    @Test
    void status_ofAReadWriteLock_showsItsReadersOrItsWriter_andAQueuedWriter() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Lease r1 = a.readWriteLock("rw-st").readLock().acquire();
            Lease r2 = b.readWriteLock("rw-st").readLock().acquire();
            CompletableFuture<Lease> writer =
                    b.readWriteLock("rw-st").writeLock().acquireAsync(Duration.ofSeconds(30));
            WaitQueue.awaitShared(redis, "rw-st", 1);

            LockInfo reading = a.admin().status("rw-st");
            assertThat(reading.kind()).isEqualTo("rw");
            assertThat(reading.holders()).extracting(Holder::weight).containsExactly(1, 1);
            assertThat(reading.holders())
                    .extracting(Holder::fencingToken)
                    .containsExactly(r1.fencingToken(), r2.fencingToken());
            assertThat(reading.queue())
                    .singleElement()
                    .satisfies(w -> assertThat(w.weight()).isEqualTo(reading.capacity()));
            assertThat(a.admin().list("rw-*")).extracting(LockInfo::name).containsExactly("rw-st");

            r1.release();
            r2.release();
            Lease w = writer.get(10, TimeUnit.SECONDS);
            LockInfo writing = a.admin().status("rw-st");
            assertThat(writing.holders()).singleElement().satisfies(h -> {
                assertThat(h.weight()).isEqualTo(writing.capacity());
                assertThat(h.fencingToken()).isEqualTo(w.fencingToken());
            });
            assertThat(writing.queue()).isEmpty();
            w.release();
        }
    }

    @Test
    void list_findsSemaphoresBesideMutexes_withTheirHolders() {
        try (LockClient client = connect(redis.uri())) {
            Lease mutex = client.lock("mixed-m").acquire();
            Lease p1 = client.semaphore("mixed-s", 4).acquire(3);
            Lease p2 = client.semaphore("mixed-s", 4).acquire();
            client.semaphore("mixed-free", 2).acquire().release();
            List<LockInfo> listed = client.admin().list("mixed-*");
            assertThat(listed).extracting(LockInfo::name).containsExactlyInAnyOrder("mixed-m", "mixed-s");
            LockInfo sem = listed.stream()
                    .filter(l -> l.name().equals("mixed-s"))
                    .findFirst()
                    .orElseThrow();
            assertThat(sem.kind()).isEqualTo("semaphore");
            assertThat(sem.capacity()).isEqualTo(4);
            assertThat(sem.holders()).extracting(Holder::weight).containsExactly(3, 1);
            assertThat(sem.fencingToken()).isEqualTo(p2.fencingToken());
            LockInfo lock = listed.stream()
                    .filter(l -> l.name().equals("mixed-m"))
                    .findFirst()
                    .orElseThrow();
            assertThat(lock.kind()).isEqualTo(LockAdmin.MUTEX);
            assertThat(lock.holders()).extracting(Holder::fencingToken).containsExactly(mutex.fencingToken());
            p1.release();
            p2.release();
            mutex.release();
            assertThat(client.admin().list("mixed-*")).isEmpty();
        }
    }

    @Test
    void forceUnlock_ofASemaphore_removesEveryHolder_grantsTheQueue_andTheHoldersLoseTheirLeases() throws Exception {
        try (LockClient holder =
                        builder(redis.uri()).leaseTime(Duration.ofMillis(600)).build();
                LockClient waiter = connect(redis.uri())) {
            Lease first = holder.semaphore("sem-stuck", 2).acquire();
            Lease second = holder.semaphore("sem-stuck", 2).acquire();
            CompletableFuture<Lease> next = waiter.semaphore("sem-stuck", 2).acquireAsync(2, Duration.ofSeconds(30));
            WaitQueue.awaitShared(redis, "sem-stuck", 1);

            ForcedUnlock forced = waiter.admin().forceUnlock("sem-stuck");
            LockInfo removed = forced.removed().orElseThrow();
            assertThat(removed.kind()).isEqualTo("semaphore");
            assertThat(removed.holders())
                    .extracting(Holder::fencingToken)
                    .containsExactly(first.fencingToken(), second.fencingToken());
            assertThat(forced.handedOver()).isTrue();
            Lease taken = next.get(10, TimeUnit.SECONDS);
            assertThat(taken.fencingToken()).isGreaterThan(second.fencingToken());
            assertThat(first.whenLost().get(5, TimeUnit.SECONDS)).hasMessageContaining("sem-stuck");
            assertThat(second.whenLost().get(5, TimeUnit.SECONDS)).hasMessageContaining("sem-stuck");
            assertThat(waiter.admin().status("sem-stuck").holders())
                    .singleElement()
                    .satisfies(h -> assertThat(h.weight()).isEqualTo(2))
                    .satisfies(h -> assertThat(h.ownerId()).startsWith(waiter.clientId()));
            taken.release();
            assertThat(waiter.admin().forceUnlock("sem-stuck").removed())
                    .as("free: nothing removed")
                    .isEmpty();
            assertThat(waiter.semaphore("sem-stuck", 2).availablePermits()).isEqualTo(2);
        }
    }

    @Test
    void purge_ofASemaphore_deletesItsRecordHoldsAndCounter() {
        try (LockClient client = connect(redis.uri())) {
            Lease lease = client.semaphore("sem-tmp", 2).acquire();
            assertThat(client.admin().purge("sem-tmp")).isEqualTo(3L); // record, holds, fence
            assertThat(redis.command("EXISTS", "dlock:{sem-tmp}", "dlock:{sem-tmp}:holds", "dlock:{sem-tmp}:fence"))
                    .isEqualTo(0L);
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        }
    }

    @Test
    void aStringThatIsNoRecord_isReportedByStatus_andSkippedByList() {
        redis.command("SET", "dlock:{typed-string}", "semaphore x");
        try (LockClient client = connect(redis.uri())) {
            assertThatThrownBy(() -> client.admin().status("typed-string"))
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{typed-string}");
            assertThat(client.admin().list("typed-*")).isEmpty();
        }
    }
}
