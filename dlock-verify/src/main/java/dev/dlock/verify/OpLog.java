package dev.dlock.verify;

import dev.dlock.Lease;

/**
 * One worker's side of the history: numbers its operations and writes each one's {@code invoke} line before the call
 * and its {@code complete} line after it. Used by its worker's thread only, but for the loss listener of {@link
 * #recordLoss}, which runs on the client's timer thread and so numbers its line by the acquire's sequence number,
 * negated; {@link History} serialises the writes.
 */
final class OpLog {

    private final History history;
    private final String scenario;
    private final String client;
    private final long pid = ProcessHandle.current().pid();
    private long seq;

    OpLog(History history, String scenario, String client) {
        this.history = history;
        this.scenario = scenario;
        this.client = client;
    }

    /** The sequence number of the latest operation begun. */
    long seq() {
        return seq;
    }

    /**
     * Begins an acquire.
     *
     * @param leaseNanos the lease time it asks for, or 0 for a lock that is not dlock's (checker 6 does not judge it)
     * @param kind {@link Op#KIND_READ} or {@link Op#KIND_WRITE} on a read-write lock, else empty
     */
    Op beginAcquire(String lock, long timeoutNanos, long leaseNanos, String kind) {
        return begin(Op.ACQUIRE, lock, "", timeoutNanos, 0, 0, leaseNanos, kind);
    }

    /** Begins a read, write or release of the hold with {@code token}. */
    Op begin(String type, String lock, String element, long timeoutNanos, long token, long deadline) {
        return begin(type, lock, element, timeoutNanos, token, deadline, 0, "");
    }

    private Op begin(
            String type,
            String lock,
            String element,
            long timeoutNanos,
            long token,
            long deadline,
            long leaseNanos,
            String kind) {
        Op op = new Op(
                scenario,
                client,
                pid,
                ++seq,
                type,
                System.nanoTime(),
                Long.MAX_VALUE,
                Op.UNKNOWN,
                token,
                deadline,
                element,
                timeoutNanos,
                "",
                lock,
                leaseNanos,
                kind);
        history.invoked(op);
        return op;
    }

    void end(Op op, long complete, String outcome, long token, long deadline, String detail) {
        history.completed(op.completed(complete, outcome, token, deadline, detail));
    }

    /** Records the moment the lease reports itself lost: from then on it is not valid, whatever its deadline said. */
    void recordLoss(Lease lease, long acquireSeq, String lock) {
        if (lease == null) {
            return;
        }
        long token = lease.fencingToken();
        lease.onLost(loss -> lost(acquireSeq, lock, token, loss.getMessage()));
    }

    /** Records a loss of the hold of {@code lock} that acquire {@code acquireSeq} took with {@code token}, now. */
    void lost(long acquireSeq, String lock, long token, String message) {
        long now = System.nanoTime();
        Op lost = new Op(
                scenario, client, pid, -acquireSeq, Op.LOST, now, now, Op.OK, token, 0, "", 0, message, lock, 0, "");
        history.invoked(lost);
        history.completed(lost);
    }
}
