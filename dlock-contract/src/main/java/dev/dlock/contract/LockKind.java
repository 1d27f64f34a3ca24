package dev.dlock.contract;

import dev.dlock.DistributedLock;
import dev.dlock.DistributedSemaphore;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockInfo;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The kinds of lock {@link KindContract} runs its one set of tests over. A kind says, for a client and
 * a name, which lock the holder takes ({@link #holder}) and which locks must wait while it is held
 * ({@link #contenders}), each as a {@link Subject}; what it cannot do is a capability with the reason
 * ({@link #notALock()}), shown in the skip message of the tests that need it, so the table of what
 * runs where is explicit. Kinds are immutable and thread-safe.
 */
public enum LockKind {
    /** {@code lock(n)}, contended by {@code lock(n)}. */
    MUTEX {
        @Override
        Subject holder(LockClient client, String name) {
            return Subject.of("lock(n)", false, client.lock(name));
        }

        @Override
        List<Subject> contenders(LockClient client, String name) {
            return List.of(holder(client, name));
        }
    },
    /** {@code readWriteLock(n).writeLock()}, contended by the same and by the read lock. */
    WRITE_LOCK {
        @Override
        Subject holder(LockClient client, String name) {
            return Subject.of("writeLock", false, client.readWriteLock(name).writeLock());
        }

        @Override
        List<Subject> contenders(LockClient client, String name) {
            return List.of(
                    holder(client, name),
                    Subject.of("readLock", true, client.readWriteLock(name).readLock()));
        }
    },
    /**
     * {@code readWriteLock(n).readLock()}, contended by the write lock; another reader gets in beside it
     * ({@link #holderIsShared()}).
     */
    READ_LOCK {
        @Override
        Subject holder(LockClient client, String name) {
            return Subject.of("readLock", true, client.readWriteLock(name).readLock());
        }

        @Override
        List<Subject> contenders(LockClient client, String name) {
            return List.of(
                    Subject.of("writeLock", false, client.readWriteLock(name).writeLock()));
        }
    },
    /** {@code semaphore(n, 1)}, contended by the same; adapted here, it is not a {@link DistributedLock}. */
    SEMAPHORE_1 {
        @Override
        Subject holder(LockClient client, String name) {
            return Subject.of("semaphore(n, 1)", client.semaphore(name, 1));
        }

        @Override
        List<Subject> contenders(LockClient client, String name) {
            return List.of(holder(client, name));
        }

        @Override
        Optional<String> notALock() {
            return Optional.of("semaphore(n, 1) is not a DistributedLock: no lock()/unlock() or hold count;"
                    + " its holds are Leases only");
        }
    },
    /**
     * {@code multiLock(n-a, n-b)}, contended by {@code lock(n-b)} and by {@code multiLock(n-b, n-a)};
     * its loss is tested by purging {@code n-b}.
     */
    MULTI_LOCK {
        @Override
        Subject holder(LockClient client, String name) {
            return Subject.of(
                    "multiLock(n-a, n-b)", false, client.multiLock(suffixed(name, "-a"), suffixed(name, "-b")));
        }

        @Override
        List<Subject> contenders(LockClient client, String name) {
            return List.of(
                    Subject.of("lock(n-b)", false, client.lock(name + "-b")),
                    Subject.of("multiLock(n-b, n-a)", false, client.multiLock(name + "-b", name + "-a")));
        }

        @Override
        String purgedName(String name) {
            return name + "-b";
        }

        @Override
        String nullNameArgument() {
            return "names[0]";
        }
    };

    /**
     * The lock the holder takes.
     *
     * @param client the holder's client
     * @param name the test's name; null only to test that it is refused
     * @return the holder's lock
     */
    abstract Subject holder(LockClient client, String name);

    /**
     * The locks that must wait while the holder's is held, each to be tried on its own.
     *
     * @param client the contender's client
     * @param name the test's name
     * @return at least one contender
     */
    abstract List<Subject> contenders(LockClient client, String name);

    /**
     * Whether the holder's lock admits another holder of the same lock beside it (a reader).
     *
     * @return true for the read lock
     */
    final boolean holderIsShared() {
        return this == READ_LOCK;
    }

    /**
     * Why the {@link java.util.concurrent.locks.Lock} tests (lock/unlock, re-entry) do not apply to
     * this kind, or empty when they do.
     *
     * @return the reason, for the skip message
     */
    Optional<String> notALock() {
        return Optional.empty();
    }

    /**
     * The name an operator purges to take the holder's hold away.
     *
     * @param name the test's name
     * @return the name to purge
     */
    String purgedName(String name) {
        return name;
    }

    /**
     * The argument a null name is reported as.
     *
     * @return the expected message of the {@link NullPointerException}
     */
    String nullNameArgument() {
        return "name";
    }

    private static String suffixed(String name, String suffix) {
        return name == null ? null : name + suffix; // a null name must reach the client as null
    }

    /**
     * One lock of a kind, as the contract uses it: the {@link Lease}-returning calls every kind has,
     * and the {@link DistributedLock} when the lock is one.
     */
    interface Subject {
        /** How the failure messages name it, such as {@code "readLock"}. */
        String label();

        /** Whether it admits others of its own label beside it (a reader). */
        boolean shared();

        /** Takes a lease, waiting as long as it takes. */
        Lease acquire();

        /** Takes a lease within {@code wait}, renewed by the watchdog; empty when the wait ran out. */
        Optional<Lease> tryAcquire(Duration wait);

        /** Takes a fixed lease of {@code leaseTime} within {@code wait}; empty when the wait ran out. */
        Optional<Lease> tryAcquire(Duration wait, Duration leaseTime);

        /** Takes a lease without blocking; the future holds null when the wait ran out. */
        CompletableFuture<Lease> acquireAsync(Duration wait);

        /** The lock, or empty for a semaphore. */
        Optional<DistributedLock> asLock();

        /** Reads it from Redis ({@code info()} of the lock or the semaphore). */
        LockInfo info();

        /** A {@link DistributedLock} as a subject. */
        static Subject of(String label, boolean shared, DistributedLock lock) {
            return new Subject() {
                @Override
                public String label() {
                    return label;
                }

                @Override
                public boolean shared() {
                    return shared;
                }

                @Override
                public Lease acquire() {
                    return lock.acquire();
                }

                @Override
                public Optional<Lease> tryAcquire(Duration wait) {
                    return lock.tryAcquire(wait);
                }

                @Override
                public Optional<Lease> tryAcquire(Duration wait, Duration leaseTime) {
                    return lock.tryAcquire(wait, leaseTime);
                }

                @Override
                public CompletableFuture<Lease> acquireAsync(Duration wait) {
                    return lock.acquireAsync(wait);
                }

                @Override
                public Optional<DistributedLock> asLock() {
                    return Optional.of(lock);
                }

                @Override
                public LockInfo info() {
                    return lock.info();
                }

                @Override
                public String toString() {
                    return label;
                }
            };
        }

        /** A semaphore's one-permit calls as an exclusive subject. */
        static Subject of(String label, DistributedSemaphore semaphore) {
            return new Subject() {
                @Override
                public String label() {
                    return label;
                }

                @Override
                public boolean shared() {
                    return false;
                }

                @Override
                public Lease acquire() {
                    return semaphore.acquire();
                }

                @Override
                public Optional<Lease> tryAcquire(Duration wait) {
                    return semaphore.tryAcquire(wait);
                }

                @Override
                public Optional<Lease> tryAcquire(Duration wait, Duration leaseTime) {
                    return semaphore.tryAcquire(1, wait, leaseTime);
                }

                @Override
                public CompletableFuture<Lease> acquireAsync(Duration wait) {
                    return semaphore.acquireAsync(1, wait);
                }

                @Override
                public Optional<DistributedLock> asLock() {
                    return Optional.empty();
                }

                @Override
                public LockInfo info() {
                    return semaphore.info();
                }

                @Override
                public String toString() {
                    return label;
                }
            };
        }
    }
}
