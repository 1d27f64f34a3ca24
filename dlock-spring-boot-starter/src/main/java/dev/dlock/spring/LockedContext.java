package dev.dlock.spring;

import dev.dlock.Lease;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lease of the {@link Locked} call running on the calling thread, for the method to read its
 * fencing token or check that it still holds the lock.
 *
 * <pre>{@code
 * @Locked(name = "'invoice:' + #id")
 * public void write(long id, Invoice invoice) {
 *     store.write(invoice, LockedContext.currentFencingToken()); // the store rejects stale tokens
 * }
 * }</pre>
 *
 * <p>The lease is bound to the thread for the duration of the call only: work handed to other
 * threads must take the lease (or its token) along. With nested {@code @Locked} calls, the innermost
 * one's lease is current. Thread-safe: each thread sees its own.
 *
 * <p>With {@code dlock.enabled=false} a {@code @Locked} method runs without a lock and without a
 * lease: {@link #currentLease()} is empty in it, and {@link #currentFencingToken()} returns a token
 * of this JVM's own, taken from a counter that increases with every such call (from 1), so that code
 * written for real tokens, and a store that rejects a token lower than the last, still work in tests
 * and local runs. Such tokens fence nothing across processes.
 */
public final class LockedContext {
    private static final ThreadLocal<Frame> CURRENT = new ThreadLocal<>();
    private static final AtomicLong UNLOCKED_TOKENS = new AtomicLong();

    private LockedContext() {}

    /**
     * Returns the lease of the innermost {@link Locked} call on this thread.
     *
     * @return the lease, or empty outside a {@code @Locked} method and in one that runs without a
     *     lock ({@code dlock.enabled=false})
     */
    public static Optional<Lease> currentLease() {
        Frame frame = CURRENT.get();
        return frame == null ? Optional.empty() : Optional.ofNullable(frame.lease);
    }

    /**
     * Returns the fencing token of the innermost {@link Locked} call on this thread; doubles as an
     * assertion that the caller runs under a lock (ShedLock's {@code LockAssert.assertLocked()}). In a
     * {@code @Locked} method that runs without a lock ({@code dlock.enabled=false}) it returns a token
     * of this JVM's own counter instead, which increases with every such call.
     *
     * @return the fencing token
     * @throws IllegalStateException outside a {@code @Locked} method
     */
    public static long currentFencingToken() {
        Frame frame = CURRENT.get();
        if (frame == null) {
            throw new IllegalStateException(
                    "no @Locked method runs on thread " + Thread.currentThread().getName());
        }
        return frame.lease != null ? frame.lease.fencingToken() : frame.unlockedToken;
    }

    /** The lease this thread holds for {@code name} through an enclosing {@code @Locked} call, or null. */
    static Lease held(String name) {
        for (Frame frame = CURRENT.get(); frame != null; frame = frame.outer) {
            if (frame.lease != null && frame.name.equals(name)) {
                return frame.lease;
            }
        }
        return null;
    }

    /** Makes {@code lease} current; returns the frame to give back to {@link #exit}. */
    static Frame enter(String name, Lease lease) {
        Frame frame = new Frame(name, lease, 0, CURRENT.get());
        CURRENT.set(frame);
        return frame;
    }

    /** Enters a {@code @Locked} call that runs without a lock, with the next token of this JVM's counter. */
    static Frame enterUnlocked() {
        Frame frame = new Frame(null, null, UNLOCKED_TOKENS.incrementAndGet(), CURRENT.get());
        CURRENT.set(frame);
        return frame;
    }

    /** Makes the enclosing call's lease current again. */
    static void exit(Frame frame) {
        if (frame.outer == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(frame.outer);
        }
    }

    /** One {@code @Locked} call on the thread's stack; without a name and lease when it runs unlocked. */
    static final class Frame {
        private final String name;
        private final Lease lease;
        private final long unlockedToken;
        private final Frame outer;

        private Frame(String name, Lease lease, long unlockedToken, Frame outer) {
            this.name = name;
            this.lease = lease;
            this.unlockedToken = unlockedToken;
            this.outer = outer;
        }
    }
}
