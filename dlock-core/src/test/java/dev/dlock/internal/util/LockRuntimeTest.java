package dev.dlock.internal.util;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.internal.testing.ManualScheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** {@link LockRuntime#within}: a command's deadline on the client's timer and clock, not the JDK's. Nothing sleeps. */
final class LockRuntimeTest {
    private final ManualScheduler time = new ManualScheduler();
    private final LockRuntime runtime = LockRuntime.of(time.ticker(), time, "unused");

    @Test
    void aFutureWithoutAnAnswer_failsWithATimeout_whenTheClientsClockReachesTheDeadline() {
        CompletableFuture<String> reply = runtime.within(new CompletableFuture<>(), 1000);
        time.advance(999);
        assertThat(reply).isNotDone();
        time.advance(1);
        assertThat(reply)
                .failsWithin(java.time.Duration.ZERO)
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(TimeoutException.class);
    }

    @Test
    void anAnswerInTime_isKept_andItsDeadlineIsCancelled() {
        CompletableFuture<String> reply = runtime.within(new CompletableFuture<>(), 1000);
        assertThat(time.pending()).isEqualTo(1);
        reply.complete("ok");
        assertThat(time.pending()).as("the deadline, cancelled").isZero();
        time.advance(5000);
        assertThat(reply).isCompletedWithValue("ok");
    }

    @Test
    void onAClosedClientsTimer_theFutureKeepsNoDeadline() {
        time.shutdownNow();
        CompletableFuture<String> reply = runtime.within(new CompletableFuture<>(), 1000);
        assertThat(reply).isNotDone();
    }
}
