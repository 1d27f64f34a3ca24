package dev.dlock;

/**
 * A lease that its holder believed valid was lost: it expired before it could be renewed, another
 * owner holds the lock now, or the key was deleted (for example by {@code dlock release --force}).
 *
 * <p>Thrown by {@link Lease#release()} and {@link DistributedLock#unlock()} when the lock they would
 * release is no longer theirs (the other owner's key is left untouched), and handed to the listeners
 * of {@link Lease#onLost}. Instances are immutable and safe to share between threads.
 */
public final class LockLostException extends LockException {
    private static final long serialVersionUID = 1L;

    /** The lock name. */
    private final String lockName;
    /** The lost lease's token. */
    private final long fencingToken;

    /**
     * Creates an exception for the loss of the lease with {@code fencingToken} on {@code lockName}.
     *
     * @param lockName the lock's name
     * @param fencingToken the fencing token of the lost lease
     * @param reason what happened
     */
    public LockLostException(String lockName, long fencingToken, String reason) {
        super("lock '" + lockName + "' (fencing token " + fencingToken + ") was lost: " + reason);
        this.lockName = lockName;
        this.fencingToken = fencingToken;
    }

    /**
     * Returns the name of the lock whose lease was lost.
     *
     * @return the lock name
     */
    public String lockName() {
        return lockName;
    }

    /**
     * Returns the fencing token of the lost lease.
     *
     * @return the fencing token
     */
    public long fencingToken() {
        return fencingToken;
    }
}
