package dev.dlock;

/**
 * A write that would grant or keep a lock was not acknowledged by as many replicas as {@link
 * LockClient.Builder#replicaAcks} requires within {@link LockClient.Builder#replicaAckTimeout}. For
 * an acquire, the lock was released again (owner-checked) before this was thrown: nothing is held
 * on an unacknowledged write. An error, not "busy": retrying helps only once the replicas are back.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public final class LockReplicationException extends LockException {
    private static final long serialVersionUID = 1L;

    /** The lock key. */
    private final String key;

    /** The replicas that acknowledged. */
    private final int acknowledged;

    /** The replicas required. */
    private final int required;

    /**
     * Creates an exception for a write about {@code key}.
     *
     * @param key the Redis key of the lock
     * @param acknowledged how many replicas acknowledged the write
     * @param required how many were required
     * @param what what the write was, such as "the acquire of 'orders'"
     */
    public LockReplicationException(String key, int acknowledged, int required, String what) {
        super(what + " was acknowledged by " + acknowledged + " of the " + required
                + " replica(s) required (replicaAcks); it does not count");
        this.key = key;
        this.acknowledged = acknowledged;
        this.required = required;
    }

    /**
     * Returns the Redis key of the lock.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * Returns how many replicas acknowledged the write.
     *
     * @return the count
     */
    public int acknowledged() {
        return acknowledged;
    }

    /**
     * Returns how many replicas were required.
     *
     * @return the count
     */
    public int required() {
        return required;
    }
}
