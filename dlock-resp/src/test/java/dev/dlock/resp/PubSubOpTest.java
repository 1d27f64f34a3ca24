package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A subscribe issued while disconnected is carried by the restoring subscribe of the next connection; when that
 * connection is lost before Redis confirmed, the restoring subscribe itself waits and is carried by the restore of the
 * one after. Confirming or failing the last restore must reach the caller's subscribe through every level, or that
 * future (in no queue, so never timed out) stays pending for good and a {@code lock()} waiting on it never returns.
 */
final class PubSubOpTest {
    private static final long LATER = System.nanoTime() + 60_000_000_000L;

    @Test
    void confirm_completesTheSubscribesCarriedThroughEveryRestore() {
        PubSubOp callers = new PubSubOp(true, "a", LATER);
        PubSubOp firstRestore = PubSubOp.restore("a", LATER, 1);
        firstRestore.carry(callers);
        PubSubOp secondRestore = PubSubOp.restore("a", LATER, 1);
        secondRestore.carry(firstRestore);

        secondRestore.confirm();

        assertThat(firstRestore).isCompleted();
        assertThat(callers).isCompleted();
    }

    @Test
    void fail_failsTheSubscribesCarriedThroughEveryRestore() {
        PubSubOp callers = new PubSubOp(true, "a", LATER);
        PubSubOp firstRestore = PubSubOp.restore("a", LATER, 1);
        firstRestore.carry(callers);
        PubSubOp secondRestore = PubSubOp.restore("a", LATER, 1);
        secondRestore.carry(firstRestore);

        secondRestore.fail(Failures.closed("redis://h:1"));

        assertThat(firstRestore).isCompletedExceptionally();
        assertThat(callers).isCompletedExceptionally();
    }
}
