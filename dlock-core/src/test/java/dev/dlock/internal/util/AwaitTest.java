package dev.dlock.internal.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one wait for operations under way: an interrupt gives an interruptible acquire up and is thrown,
 * is kept by an uninterruptible one, and is handed on by a reply's wait with the flag set again.
 */
final class AwaitTest {

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void anInterruptedInterruptibleAcquire_isGivenUp_andThrows() {
        CompletableFuture<String> acquire = new CompletableFuture<>();
        AtomicInteger givenUp = new AtomicInteger();
        Thread.currentThread().interrupt();
        assertThatThrownBy(() ->
                        Await.SYSTEM.acquire(acquire, true, a -> givenUp.incrementAndGet(), RuntimeException::new))
                .isInstanceOf(InterruptedException.class);
        assertThat(givenUp).hasValue(1);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void anInterruptedUninterruptibleAcquire_waitsOn_andSetsTheFlagAgain() throws Exception {
        CompletableFuture<String> acquire = new CompletableFuture<>();
        AtomicReference<Object> outcome = new AtomicReference<>();
        AtomicInteger givenUp = new AtomicInteger();
        Thread waiter = new Thread(() -> {
            try {
                String got =
                        Await.SYSTEM.acquire(acquire, false, a -> givenUp.incrementAndGet(), RuntimeException::new);
                outcome.set(got + ", interrupted " + Thread.currentThread().isInterrupted());
            } catch (InterruptedException | RuntimeException e) {
                outcome.set(e);
            }
        });
        waiter.start();
        for (int i = 0; i < 3; i++) {
            Thread.sleep(20);
            waiter.interrupt();
        }
        Thread.sleep(20);
        assertThat(waiter.isAlive()).as("still waiting").isTrue();
        acquire.complete("hold");
        waiter.join(5_000);
        assertThat(outcome.get()).isEqualTo("hold, interrupted true");
        assertThat(givenUp).hasValue(0);
    }

    @Test
    void aFailedAcquire_throwsWhatTheFailureMakesOfItsCause() {
        IllegalStateException cause = new IllegalStateException("refused");
        CompletableFuture<String> acquire = CompletableFuture.failedFuture(cause);
        assertThatThrownBy(
                        () -> Await.SYSTEM.acquire(acquire, true, a -> {}, c -> new IllegalArgumentException("x", c)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasCause(cause);
        CompletableFuture<String> cancelled = new CompletableFuture<>();
        cancelled.cancel(false);
        assertThatThrownBy(() -> Await.SYSTEM.acquire(cancelled, true, a -> {}, RuntimeException::new))
                .isInstanceOf(CancellationException.class);
    }

    @Test
    void onlyACancelledAcquire_goesToCancelled_notAFailureCausedByACancellation() {
        CompletableFuture<String> cancelled = new CompletableFuture<>();
        cancelled.cancel(false);
        assertThatThrownBy(() -> Await.SYSTEM.acquire(
                        cancelled, true, a -> {}, RuntimeException::new, c -> new IllegalStateException("closed", c)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("closed");
        CompletableFuture<String> failed = new CompletableFuture<>();
        failed.completeExceptionally(new CompletionException(new CancellationException("upstream")));
        assertThatThrownBy(() -> Await.SYSTEM.acquire(
                        failed, true, a -> {}, c -> (RuntimeException) c, c -> new IllegalStateException("closed", c)))
                .isInstanceOf(CancellationException.class)
                .hasMessage("upstream");
    }

    @Test
    void aReply_isReturned_andAMissingOne_isWhatNoAnswerSays() {
        assertThat(Await.SYSTEM.reply(CompletableFuture.completedFuture("ok"), 1000, e -> new IllegalStateException()))
                .isEqualTo("ok");
        AtomicReference<Exception> seen = new AtomicReference<>();
        assertThat(Await.SYSTEM.reply(new CompletableFuture<String>(), 10, e -> {
                    seen.set(e);
                    return null;
                }))
                .isNull();
        assertThat(seen.get()).isInstanceOf(TimeoutException.class);
        assertThatThrownBy(() -> Await.SYSTEM.reply(
                        CompletableFuture.failedFuture(new IllegalStateException("down")),
                        1000,
                        e -> new IllegalArgumentException(e)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasCauseInstanceOf(ExecutionException.class);
        String none = Await.SYSTEM.replyOrNull(CompletableFuture.failedFuture(new IllegalStateException()), 1000);
        assertThat(none).isNull();
    }

    @Test
    void anInterruptedReply_setsTheFlagAgain_beforeNoAnswerDecides() {
        AtomicReference<Boolean> flagSeen = new AtomicReference<>();
        Thread.currentThread().interrupt();
        assertThatThrownBy(() ->
                        Await.SYSTEM.reply(new CompletableFuture<String>(), TimeUnit.SECONDS.toMillis(5), e -> {
                            flagSeen.set(Thread.currentThread().isInterrupted());
                            return e instanceof InterruptedException
                                    ? new IllegalStateException("interrupted", e)
                                    : null;
                        }))
                .isInstanceOf(IllegalStateException.class)
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(flagSeen.get()).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }
}
