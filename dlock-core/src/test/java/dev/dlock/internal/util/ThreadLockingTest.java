package dev.dlock.internal.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockInfo;
import dev.dlock.LockLostException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The one re-entry mechanism of every kind of lock ({@link ThreadLocking} over the client's {@link
 * ThreadHolds}), on leases that record what is asked of them: only the first {@code lock()} takes a
 * hold and only the last {@code unlock()} releases it; a re-entry is confirmed by the lease first; views
 * of one lock in one role agree, and roles and threads are kept apart.
 */
final class ThreadLockingTest {
    private final ThreadHolds holds = new ThreadHolds();
    private final List<String> calls = new CopyOnWriteArrayList<>();

    @Test
    void onlyTheFirstLockTakes_andOnlyTheLastUnlockReleases() {
        TestLock lock = new TestLock(ThreadHolds.MUTEX, "a");
        lock.lock();
        assertThat(lock.tryLock()).isTrue();
        assertThat(lock.getHoldCount()).isEqualTo(2);
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock.fencingToken()).isEqualTo(1);
        lock.unlock();
        assertThat(calls).containsExactly("take a", "confirm a#1");
        lock.unlock();
        assertThat(calls).containsExactly("take a", "confirm a#1", "release a#1");
        assertThat(lock.getHoldCount()).isZero();
        assertThatThrownBy(lock::unlock)
                .isInstanceOf(IllegalMonitorStateException.class)
                .hasMessage("the current thread does not hold lock 'a' through this client");
        assertThatThrownBy(lock::remaining).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void aReentryTheLeaseRefuses_throwsItsLoss_andCountsNothing() {
        TestLock lock = new TestLock(ThreadHolds.MUTEX, "b");
        lock.lock();
        lock.refuse.set(new LockLostException("b", 1, "lost"));
        assertThatThrownBy(lock::lock).isSameAs(lock.refuse.get());
        assertThat(lock.getHoldCount()).isEqualTo(1);
        lock.unlock();
        assertThat(calls).containsExactly("take b", "confirm b#1", "release b#1");
    }

    @Test
    void viewsOfOneLockInOneRole_agree_andRolesAndThreads_areApart() throws Exception {
        TestLock mutex = new TestLock(ThreadHolds.MUTEX, "c");
        TestLock sameMutex = new TestLock(ThreadHolds.MUTEX, "c");
        TestLock multi = new TestLock(ThreadHolds.MULTI, "c");
        mutex.lock();
        assertThat(sameMutex.getHoldCount()).isEqualTo(1);
        assertThat(multi.getHoldCount()).isZero();
        multi.lock();
        assertThat(calls).containsExactly("take c", "take c");
        AtomicReference<Integer> otherThread = new AtomicReference<>();
        Thread t = new Thread(() -> otherThread.set(mutex.getHoldCount()));
        t.start();
        t.join(5_000);
        assertThat(otherThread.get()).isZero();
        sameMutex.unlock();
        assertThat(mutex.getHoldCount()).isZero();
        assertThat(multi.getHoldCount()).isEqualTo(1);
        holds.clear();
        assertThat(multi.getHoldCount()).as("after the client's close").isZero();
    }

    /** A lock whose first hold is a recording lease with the next token. */
    private final class TestLock extends ThreadLocking {
        private final String name;
        private final AtomicReference<LockLostException> refuse = new AtomicReference<>();
        private long tokens;

        TestLock(String role, String name) {
            super(holds, role, name);
            this.name = name;
        }

        @Override
        protected ThreadHolds.Reentrant takeForThread(long waitNanos, boolean interruptible) {
            calls.add("take " + name);
            return lease(name + "#" + ++tokens, tokens);
        }

        private ThreadHolds.Reentrant lease(String id, long token) {
            return (ThreadHolds.Reentrant) Proxy.newProxyInstance(
                    ThreadHolds.Reentrant.class.getClassLoader(),
                    new Class<?>[] {ThreadHolds.Reentrant.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "confirmForReentry" -> {
                            calls.add("confirm " + id);
                            LockLostException loss = refuse.get();
                            if (loss != null) {
                                throw loss;
                            }
                            yield null;
                        }
                        case "release" -> {
                            calls.add("release " + id);
                            yield null;
                        }
                        case "isValid" -> true;
                        case "fencingToken" -> token;
                        case "remaining" -> Duration.ofSeconds(1);
                        case "lockName" -> name;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }

        @Override
        protected Lease awaitLease(long waitNanos, long leaseMillis, boolean renewed) {
            throw new UnsupportedOperationException();
        }

        @Override
        protected long clientLeaseMillis() {
            return 30_000;
        }

        @Override
        protected String waitedFor() {
            return "lock '" + name + "'";
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public CompletableFuture<Lease> acquireAsync(Duration wait) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isLocked() {
            throw new UnsupportedOperationException();
        }

        @Override
        public LockInfo info() {
            throw new UnsupportedOperationException();
        }
    }
}
