package dev.dlock.verify;

/** Builds hand-made history operations for the checker tests; times are in milliseconds for readability. */
final class Ops {
    private static long seq;

    private Ops() {}

    static long ms(long millis) {
        return millis * 1_000_000L;
    }

    static Op acquire(String client, long invoke, long complete, long token, long deadline) {
        return op(client, Op.ACQUIRE, invoke, complete, Op.OK, token, deadline, "", "");
    }

    static Op release(String client, long invoke, long complete, long token) {
        return op(client, Op.RELEASE, invoke, complete, Op.OK, token, 0, "", "");
    }

    static Op write(String client, long invoke, long complete, String outcome, long token, String element) {
        return op(
                client,
                Op.WRITE,
                invoke,
                complete,
                outcome,
                token,
                0,
                element,
                Op.FAIL.equals(outcome) ? FenceChecker.REJECTED : "");
    }

    /** An acquire of a read-write lock's read ({@link Op#KIND_READ}) or write ({@link Op#KIND_WRITE}) lock. */
    static Op acquire(String client, long invoke, long complete, long token, long deadline, String kind) {
        Op op = acquire(client, invoke, complete, token, deadline);
        return new Op(
                op.scenario(),
                op.client(),
                op.pid(),
                op.seq(),
                op.type(),
                op.invoke(),
                op.complete(),
                op.outcome(),
                op.token(),
                op.deadline(),
                op.element(),
                op.timeoutNanos(),
                op.detail(),
                op.lock(),
                op.leaseNanos(),
                kind);
    }

    /** The same operation on another lock name. */
    static Op onLock(Op op, String lock) {
        return with(op, lock, op.leaseNanos());
    }

    /** The same operation with a lease time (ms), as an acquire records it. */
    static Op withLease(Op op, long leaseMillis) {
        return with(op, op.lock(), ms(leaseMillis));
    }

    private static Op with(Op op, String lock, long leaseNanos) {
        return new Op(
                op.scenario(),
                op.client(),
                op.pid(),
                op.seq(),
                op.type(),
                op.invoke(),
                op.complete(),
                op.outcome(),
                op.token(),
                op.deadline(),
                op.element(),
                op.timeoutNanos(),
                op.detail(),
                lock,
                leaseNanos,
                op.kind());
    }

    static Op op(
            String client,
            String type,
            long invoke,
            long complete,
            String outcome,
            long token,
            long deadline,
            String element,
            String detail) {
        return new Op(
                "test",
                client,
                1,
                ++seq,
                type,
                ms(invoke),
                complete == Long.MAX_VALUE ? complete : ms(complete),
                outcome,
                token,
                deadline == 0 ? 0 : ms(deadline),
                element,
                ms(5000),
                detail,
                "test",
                0,
                "");
    }
}
