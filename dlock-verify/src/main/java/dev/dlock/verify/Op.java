package dev.dlock.verify;

/**
 * One recorded operation of the history. Times are {@link System#nanoTime()} values: on Linux every JVM on one machine
 * reads the same {@code CLOCK_MONOTONIC}, so times recorded by different processes of one run are comparable.
 *
 * @param scenario the scenario the operation belongs to
 * @param client the client (thread or JVM) that ran it, for example {@code t1} or {@code jvm1}
 * @param pid the process id of the client's JVM
 * @param seq the client's own sequence number of this operation
 * @param type {@code acquire}, {@code read}, {@code write}, {@code release}, {@code lost} (the lease reported its
 *     loss), {@code expiry} (a look at the expiry of one of the lock's keys), or {@code fault}
 * @param invoke nanoTime before the call (for a fault: when it was injected)
 * @param complete nanoTime after the call returned, or {@link Long#MAX_VALUE} when it never returned (the process
 *     died); for a fault: when it healed
 * @param outcome {@code ok}, {@code fail} (definitely did not happen) or {@code unknown}
 * @param token the fencing token of the hold the operation belongs to, or 0
 * @param deadline the hold's validity deadline (nanoTime) as observed by the client at this operation, or 0; for a
 *     fault, the time from which the lock must be taken again within TTL + 1 s; for an expiry look, the earliest
 *     instant the key can expire
 * @param element the element a write appends to the list, or empty
 * @param timeoutNanos how long the call may take by its own contract, or 0 when unbounded
 * @param detail free text: why it failed, or for a fault its name
 * @param lock the lock name the operation belongs to (a scenario may take several names), or empty for a fault
 * @param leaseNanos for an acquire: the lease time it asked for (the client's, or the fixed one), else 0
 * @param kind for an acquire of a read-write lock: {@link #KIND_READ} or {@link #KIND_WRITE}, the hold it asked for;
 *     else empty
 */
record Op(
        String scenario,
        String client,
        long pid,
        long seq,
        String type,
        long invoke,
        long complete,
        String outcome,
        long token,
        long deadline,
        String element,
        long timeoutNanos,
        String detail,
        String lock,
        long leaseNanos,
        String kind) {

    static final String OK = "ok";
    static final String FAIL = "fail";
    static final String UNKNOWN = "unknown";

    static final String ACQUIRE = "acquire";
    static final String READ = "read";
    static final String WRITE = "write";
    static final String RELEASE = "release";
    static final String FAULT = "fault";
    static final String LOST = "lost";
    /** A look at a lock's key: its deadline is the earliest instant the key can expire (checker 9). */
    static final String EXPIRY = "expiry";

    static final String KIND_READ = "read";
    static final String KIND_WRITE = "write";

    boolean ok() {
        return OK.equals(outcome);
    }

    boolean is(String kind) {
        return type.equals(kind);
    }

    /** The key of the hold this operation belongs to: a client's lease is identified by its lock name and token. */
    String holdKey() {
        return client + "#" + lock + "#" + token;
    }

    Op completed(long completeNanos, String newOutcome, long newToken, long newDeadline, String newDetail) {
        return new Op(
                scenario,
                client,
                pid,
                seq,
                type,
                invoke,
                completeNanos,
                newOutcome,
                newToken,
                newDeadline,
                element,
                timeoutNanos,
                newDetail,
                lock,
                leaseNanos,
                kind);
    }

    /** Whether this is an acquire of a read-write lock's write lock (a hold that excludes every other). */
    boolean isWrite() {
        return KIND_WRITE.equals(kind);
    }

    /** Whether this is an acquire of a read-write lock's read lock (a hold that may overlap other read holds). */
    boolean isRead() {
        return KIND_READ.equals(kind);
    }
}
