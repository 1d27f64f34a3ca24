package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedReadWriteLock;
import dev.dlock.Lease;
import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import dev.dlock.LockInfo;
import dev.dlock.LockLostException;
import dev.dlock.LockServerException;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The read-write lock (docs/lock-family.md) against real servers, what one holder may do: re-enter per
 * thread and view, downgrade (a read hold beside its own write hold, ahead of the queue), not upgrade
 * (refused, not a wait for itself); tokens increase across read, write and mutex holds; a timed-out
 * writer stops holding back readers; a name is one kind of lock at a time. Who gets in and when is
 * {@link ReadWriteLockContract}'s.
 */
public abstract class ReadWriteHoldsContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected ReadWriteHoldsContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perClass();

    private static Duration scaled(long millis) {
        return Timing.scaled(Duration.ofMillis(millis));
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(scaled(5000).toMillis(), TimeUnit.MILLISECONDS);
    }

    private Object command(String... args) {
        return redis.command(args);
    }

    private void awaitQueued(String name, long waiters) throws InterruptedException {
        long by = System.nanoTime() + scaled(5000).toNanos();
        String queue = "dlock:{" + name + "}:sq";
        while (!command("ZCARD", queue).equals(waiters) && System.nanoTime() < by) {
            Thread.sleep(5);
        }
        assertThat(command("ZCARD", queue)).as("waiters queued on " + name).isEqualTo(waiters);
    }

    @Test
    void threadHolds_areReentrantPerThreadAndView_andTouchRedisOnlyAtTheFirstAndLast() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            DistributedReadWriteLock rw = a.readWriteLock("reenter");
            rw.readLock().lock();
            assertThat(rw.readLock().tryLock()).isTrue();
            assertThat(rw.readLock().getHoldCount()).isEqualTo(2);
            assertThat(command("HLEN", "dlock:{reenter}:holds")).isEqualTo(1L);
            assertThat(b.readWriteLock("reenter").readLock().tryLock())
                    .as("readers share")
                    .isTrue();
            b.readWriteLock("reenter").readLock().unlock();
            rw.readLock().unlock();
            assertThat(rw.readLock().isHeldByCurrentThread()).isTrue();
            rw.readLock().unlock();
            assertThat(command("HLEN", "dlock:{reenter}:holds")).isEqualTo(0L);
            assertThatThrownBy(() -> rw.readLock().unlock()).isInstanceOf(IllegalMonitorStateException.class);

            rw.writeLock().lock();
            long token = rw.writeLock().fencingToken();
            rw.writeLock().lock();
            assertThat(rw.writeLock().getHoldCount()).isEqualTo(2);
            assertThat(rw.writeLock().fencingToken()).isEqualTo(token);
            assertThat(b.readWriteLock("reenter").readLock().tryLock()).isFalse();
            assertThat(rw.writeLock().info().holderId()).isPresent();
            assertThat(rw.writeLock().isLocked()).isTrue();
            assertThat(rw.readLock().isLocked()).isFalse();
            rw.writeLock().unlock();
            assertThat(b.readWriteLock("reenter").writeLock().tryLock()).isFalse();
            rw.writeLock().unlock();
            assertThat(b.readWriteLock("reenter").writeLock().tryLock()).isTrue();
            b.readWriteLock("reenter").writeLock().unlock();
        }
    }

    @Test
    void aWriter_downgradesToReading_pastQueuedWaiters_andTheReadersAtTheHeadJoinIt() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            DistributedReadWriteLock rw = a.readWriteLock("down");
            rw.writeLock().lock();
            CompletableFuture<Lease> reader = b.readWriteLock("down").readLock().acquireAsync(scaled(30_000));
            awaitQueued("down", 1);
            CompletableFuture<Lease> writer =
                    b.readWriteLock("down").writeLock().acquireAsync(scaled(30_000));
            awaitQueued("down", 2);
            rw.readLock().lock(); // beside its own write hold, at once, ahead of the queue
            assertThat(rw.readLock().fencingToken())
                    .isGreaterThan(rw.writeLock().fencingToken());
            assertThat(reader).isNotDone();
            rw.writeLock().unlock(); // still reading: the head reader joins, the writer waits
            Lease theirs = await(reader);
            assertThat(rw.readLock().isHeldByCurrentThread()).isTrue();
            Thread.sleep(200);
            assertThat(writer).isNotDone();
            rw.readLock().unlock();
            theirs.release();
            await(writer).release();

            // the same with leases
            Lease write = rw.writeLock().acquire();
            Lease read = rw.downgrade(write);
            assertThat(read.fencingToken()).isGreaterThan(write.fencingToken());
            write.release();
            b.readWriteLock("down")
                    .readLock()
                    .tryAcquire(Duration.ZERO)
                    .orElseThrow()
                    .release();
            assertThat(b.readWriteLock("down").writeLock().tryAcquire(Duration.ZERO))
                    .isEmpty();
            assertThatThrownBy(() -> rw.downgrade(read)).isInstanceOf(IllegalArgumentException.class);
            read.release();
            assertThatThrownBy(() -> rw.downgrade(write)).isInstanceOf(LockLostException.class);
            assertThat(command("HLEN", "dlock:{down}:holds"))
                    .as("nothing taken")
                    .isEqualTo(0L);
        }
    }

    @Test
    void anUpgrade_isRefusedWithAClearError_insteadOfWaitingForItself() throws Exception {
        try (LockClient a = connect(redis.uri())) {
            DistributedReadWriteLock rw = a.readWriteLock("up");
            Workers.run("upgrader", 1, Duration.ofSeconds(20), worker -> {
                rw.readLock().lock();
                assertThatThrownBy(() -> rw.writeLock().lock())
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("cannot be upgraded");
                assertThatThrownBy(() -> rw.writeLock().tryLock(1, TimeUnit.SECONDS))
                        .isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(() -> rw.writeLock().acquire()).isInstanceOf(IllegalStateException.class);
                assertThat(rw.readLock().isHeldByCurrentThread()).isTrue();
                assertThat(command("ZCARD", "dlock:{up}:sq"))
                        .as("nothing queued")
                        .isEqualTo(0L);
                rw.readLock().unlock();
                rw.writeLock().lock(); // once the read lock is released
                rw.writeLock().unlock();
            });
        }
    }

    @Test
    void tokensStrictlyIncreaseAcrossReadAndWriteHolds_andTheMutexOfTheSameName() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Lease r1 = a.readWriteLock("tokens").readLock().acquire();
            Lease r2 = b.readWriteLock("tokens").readLock().acquire();
            assertThat(r2.fencingToken()).isGreaterThan(r1.fencingToken());
            CompletableFuture<Lease> granted =
                    b.readWriteLock("tokens").writeLock().acquireAsync(scaled(30_000));
            awaitQueued("tokens", 1);
            r1.release();
            r2.release();
            Lease w = await(granted);
            assertThat(w.fencingToken()).as("a granted write token").isGreaterThan(r2.fencingToken());
            Lease r3 = b.readWriteLock("tokens").downgrade(w);
            assertThat(r3.fencingToken()).isGreaterThan(w.fencingToken());
            w.release();
            r3.release();
            command("DEL", "dlock:{tokens}"); // the record gone: the name may be a mutex now
            Lease mutex = a.lock("tokens").acquire();
            assertThat(mutex.fencingToken()).as("the name's one counter").isGreaterThan(r3.fencingToken());
            mutex.release();
        }
    }

    @Test
    void info_showsTheKindAndEveryHolder_readersWeighingOne_aWriterTheWholeCapacity() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Lease r1 = a.readWriteLock("info").readLock().acquire();
            Lease r2 = b.readWriteLock("info").readLock().acquire();
            LockInfo reading = a.readWriteLock("info").readLock().info();
            assertThat(reading.kind()).isEqualTo("rw");
            assertThat(reading.holders()).extracting(LockAdmin.Holder::weight).containsExactly(1, 1);
            assertThat(reading.holders())
                    .extracting(LockAdmin.Holder::fencingToken)
                    .containsExactly(r1.fencingToken(), r2.fencingToken());
            assertThat(reading.fencingToken()).as("the latest reader's").isEqualTo(r2.fencingToken());
            assertThat(a.readWriteLock("info").writeLock().info().holderId())
                    .as("no writer")
                    .isEmpty();
            r1.release();
            r2.release();
            try (Lease w = b.readWriteLock("info").writeLock().acquire()) {
                LockInfo writing = a.readWriteLock("info").readLock().info();
                assertThat(writing.holders()).singleElement().satisfies(h -> {
                    assertThat(h.fencingToken()).isEqualTo(w.fencingToken());
                    assertThat(h.weight()).isGreaterThan(1);
                    assertThat(h.remaining()).isPositive();
                });
                assertThat(writing.holderId()).as("no reader").isEmpty();
            }
        }
    }

    @Test
    void aNameHeldAsAnotherKind_isATypedErrorNamingTheKey_andNothingIsOverwritten() {
        try (LockClient client = connect(redis.uri())) {
            Lease mutex = client.lock("kind").acquire();
            Object owner = command("HGET", "dlock:{kind}", "owner");
            assertThatThrownBy(() -> client.readWriteLock("kind").readLock().acquire())
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{kind}")
                    .hasMessageContaining("dlock lock");
            assertThatThrownBy(() -> client.readWriteLock("kind").writeLock().info())
                    .isInstanceOf(LockServerException.class);
            assertThat(command("HGET", "dlock:{kind}", "owner")).isEqualTo(owner);
            assertThat(command("EXISTS", "dlock:{kind}:holds")).isEqualTo(0L);
            mutex.release();

            Lease permit = client.semaphore("sem", 2).acquire();
            assertThatThrownBy(() -> client.readWriteLock("sem").writeLock().tryLock())
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{sem}")
                    .hasMessageContaining("semaphore");
            assertThat(command("HLEN", "dlock:{sem}:holds")).isEqualTo(1L);
            permit.release();

            Lease read = client.readWriteLock("rw").readLock().acquire();
            Object record = command("GET", "dlock:{rw}");
            assertThatThrownBy(() -> client.lock("rw").tryAcquire(Duration.ZERO))
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{rw}");
            assertThatThrownBy(() -> client.semaphore("rw", 2).acquire())
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{rw}");
            assertThat(command("GET", "dlock:{rw}")).isEqualTo(record);
            assertThat(command("HLEN", "dlock:{rw}:holds")).isEqualTo(1L);
            read.release();

            command("SET", "dlock:{other}", "someone else's");
            assertThatThrownBy(() -> client.readWriteLock("other").writeLock().acquire())
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{other}");
            assertThat(command("GET", "dlock:{other}")).isEqualTo("someone else's");
        }
    }

    @Test
    void aTimedOutWriter_leavesTheQueue_andNoLongerHoldsBackReaders_andAFixedLeaseRunsOut() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Lease read = a.readWriteLock("leave").readLock().acquire();
            assertThat(b.readWriteLock("leave").writeLock().tryAcquire(Duration.ofMillis(300)))
                    .isEmpty();
            assertThat(command("ZCARD", "dlock:{leave}:sq"))
                    .as("timed out: left")
                    .isEqualTo(0L);
            Lease another = b.readWriteLock("leave")
                    .readLock()
                    .tryAcquire(Duration.ZERO)
                    .orElseThrow();
            another.release();
            read.release();

            Lease fixed = a.readWriteLock("leave")
                    .writeLock()
                    .tryAcquire(Duration.ZERO, Duration.ofMillis(800))
                    .orElseThrow();
            assertThat(b.readWriteLock("leave").readLock().tryAcquire(Duration.ZERO))
                    .isEmpty();
            Lease after =
                    b.readWriteLock("leave").readLock().tryAcquire(scaled(3000)).orElseThrow();
            assertThat(fixed.isValid()).isFalse();
            after.release();
        }
    }
}
