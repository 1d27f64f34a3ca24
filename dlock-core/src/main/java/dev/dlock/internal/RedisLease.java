package dev.dlock.internal;

import dev.dlock.Lease;
import dev.dlock.LockLostException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One hold in Redis. Protocol: the lease is valid until {@code deadline}, a monotonic-clock instant
 * computed from the time <em>before</em> the acquire (or renewal) was sent, minus a drift allowance;
 * Redis keeps the key at least that long. The state moves once from HELD to RELEASED or LOST and
 * never back, so a late renewal reply cannot revive a lost lease.
 */
final class RedisLease implements Lease {
    enum State {
        HELD,
        RELEASED,
        LOST
    }

    private final RedisLockClient client;
    private final LockKeys keys;
    private final String owner;
    private final long token;
    private final long leaseMillis;
    private final boolean renewed;
    private final Ticker ticker;
    private final AtomicReference<State> state = new AtomicReference<>(State.HELD);
    private final CompletableFuture<LockLostException> lost = new CompletableFuture<>();
    private final CopyOnWriteArrayList<Consumer<? super LockLostException>> listeners = new CopyOnWriteArrayList<>();
    private volatile long deadline;
    private volatile boolean lossReported;

    RedisLease(
            RedisLockClient client,
            LockKeys keys,
            String owner,
            long token,
            long leaseMillis,
            boolean renewed,
            Ticker ticker,
            long sentAt) {
        this.client = client;
        this.keys = keys;
        this.owner = owner;
        this.token = token;
        this.leaseMillis = leaseMillis;
        this.renewed = renewed;
        this.ticker = ticker;
        this.deadline = deadlineFrom(sentAt, leaseMillis);
    }

    /** The drift allowance of Redlock: 1% of the lease plus 2 ms for clock granularity. */
    static long deadlineFrom(long sentAt, long leaseMillis) {
        long leaseNanos = leaseMillis * 1_000_000L;
        return sentAt + leaseNanos - leaseNanos / 100 - 2_000_000L;
    }

    LockKeys keys() {
        return keys;
    }

    String owner() {
        return owner;
    }

    long leaseMillis() {
        return leaseMillis;
    }

    boolean isRenewed() {
        return renewed;
    }

    long deadline() {
        return deadline;
    }

    boolean isHeld() {
        return state.get() == State.HELD;
    }

    /** A renewal sent at {@code sentAt} succeeded. */
    void renewed(long sentAt) {
        long next = deadlineFrom(sentAt, leaseMillis);
        if (next > deadline) {
            deadline = next;
        }
    }

    /** Marks the lease lost (once) and runs the listeners; a released lease stays released. */
    void markLost(String reason) {
        if (!state.compareAndSet(State.HELD, State.LOST)) {
            return;
        }
        client.forget(this);
        LockLostException loss = new LockLostException(keys.name(), token, reason);
        lost.complete(loss);
        for (Consumer<? super LockLostException> listener : listeners) {
            if (listeners.remove(listener)) {
                runListener(listener, loss);
            }
        }
    }

    private static void runListener(Consumer<? super LockLostException> listener, LockLostException loss) {
        try {
            listener.accept(loss);
        } catch (RuntimeException e) {
            // A listener's failure must not stop the others nor the watchdog.
        }
    }

    @Override
    public String lockName() {
        return keys.name();
    }

    @Override
    public long fencingToken() {
        return token;
    }

    @Override
    public Duration remaining() {
        if (state.get() != State.HELD) {
            return Duration.ZERO;
        }
        long left = deadline - ticker.nanos();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    @Override
    public boolean isValid() {
        return state.get() == State.HELD && deadline - ticker.nanos() > 0;
    }

    @Override
    public void release() {
        if (state.get() == State.HELD && deadline - ticker.nanos() <= 0) {
            markLost("its lease of " + leaseMillis + " ms ran out before it was released");
        }
        if (state.compareAndSet(State.HELD, State.RELEASED)) {
            client.forget(this);
            boolean released = client.releaseInRedis(this);
            if (!released) {
                lossReported = true;
                throw new LockLostException(
                        keys.name(), token, "the key was gone or owned by another owner when it was released");
            }
            return;
        }
        if (state.get() == State.LOST && !lossReported) {
            lossReported = true;
            throw lost.join();
        }
    }

    /** Releases without waiting or reporting, for a lock taken by an attempt nobody wants any more. */
    void releaseQuietly() {
        if (state.compareAndSet(State.HELD, State.RELEASED)) {
            client.forget(this);
            client.releaseAsync(this);
        }
    }

    /** Marks the lease released because its client is closing; the client releases it in Redis. */
    void markReleasedForClose() {
        if (state.compareAndSet(State.HELD, State.RELEASED)) {
            client.forget(this);
        }
    }

    @Override
    public void close() {
        release();
    }

    @Override
    public Lease onLost(Consumer<? super LockLostException> listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        if (lost.isDone() && listeners.remove(listener)) {
            runListener(listener, lost.join());
        }
        return this;
    }

    @Override
    public CompletableFuture<LockLostException> whenLost() {
        return lost.copy();
    }

    @Override
    public String toString() {
        return "Lease[" + keys.name() + ", token " + token + ", " + state.get() + "]";
    }
}
