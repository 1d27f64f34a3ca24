package dev.dlock.internal.util;

import dev.dlock.spi.ClientRuntime;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How a caller's thread waits for an operation under way: the one place that decides what an
 * interrupt, a failure and a missing answer do to such a wait. Two kinds of wait:
 *
 * <ul>
 *   <li>{@link #acquire}: for an acquire, which ends by its own deadline; an interrupt gives it up
 *       (interruptible waits) or is kept for later (the uninterruptible {@code lock()}).
 *   <li>{@link #reply}: for a reply, bounded by the command timeout and a second; the interrupt flag
 *       is set again and the caller says what an interrupt, a failure or no answer means.
 * </ul>
 *
 * Each wait blocks through the client's {@link ClientRuntime#await}: by default a plain {@code
 * Future.get}; a simulated runtime decides how a caller's thread waits and on which clock its timeout
 * runs. Immutable; thread-safe as the runtime is.
 */
public final class Await {
    /** Waits of the default runtime ({@link LockRuntime#SYSTEM}). */
    public static final Await SYSTEM = new Await(LockRuntime.SYSTEM);

    private final ClientRuntime runtime;

    /**
     * The waits of a client whose runtime is {@code runtime}.
     *
     * @param runtime the runtime every wait blocks through
     */
    public Await(ClientRuntime runtime) {
        this.runtime = runtime;
    }

    /**
     * Waits for an acquire under way until it completes: with its hold, or with null when its own wait
     * ran out. An interrupt of an {@code interruptible} wait hands the acquire to {@code giveUp}, which
     * returns once nothing the acquire took is left, and is thrown; an interrupt of any other wait is kept: the
     * wait goes on and the interrupt flag is set again when it ends, however it ends. A cancelled
     * acquire throws its {@link CancellationException}. {@code giveUp} and {@code failure} take what
     * they need as arguments, so that a caller can keep them in fields: the uncontended acquire makes no
     * lambda.
     *
     * @param failure what a failed acquire throws, made from the failure's cause
     * @throws InterruptedException if interrupted while an interruptible wait was on
     */
    public <T, F extends CompletableFuture<T>> T acquire(
            F acquire,
            boolean interruptible,
            Consumer<? super F> giveUp,
            Function<? super Throwable, ? extends RuntimeException> failure)
            throws InterruptedException {
        return acquire(acquire, interruptible, giveUp, failure, cancelled -> cancelled);
    }

    /**
     * {@link #acquire(CompletableFuture, boolean, Consumer, Function)}, where a cancelled acquire (its future
     * cancelled, not failed) throws what {@code cancelled} makes of the {@link CancellationException}.
     *
     * @throws InterruptedException if interrupted while an interruptible wait was on
     */
    public <T, F extends CompletableFuture<T>> T acquire(
            F acquire,
            boolean interruptible,
            Consumer<? super F> giveUp,
            Function<? super Throwable, ? extends RuntimeException> failure,
            Function<? super CancellationException, ? extends RuntimeException> cancelled)
            throws InterruptedException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return runtime.await(acquire, ClientRuntime.FOREVER);
                } catch (InterruptedException e) {
                    if (interruptible) {
                        giveUp.accept(acquire);
                        throw e;
                    }
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw failure.apply(e.getCause());
                } catch (TimeoutException e) {
                    throw new IllegalStateException("a wait without end timed out", e);
                } catch (CancellationException e) {
                    throw cancelled.apply(e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits at most {@code millis} for a reply. An interrupt sets the interrupt flag again; then it, a
     * failure ({@link ExecutionException}) or no answer in time ({@link TimeoutException}) is handed to
     * {@code noAnswer}, whose exception is thrown, or, if it returns null, the wait returns null. A
     * cancelled reply throws its {@link CancellationException}.
     *
     * @param noAnswer the exception to throw for an {@link InterruptedException}, {@link
     *     ExecutionException} or {@link TimeoutException}, or null to return null
     * @return the reply, or null as {@code noAnswer} says
     */
    public <T> T reply(
            CompletableFuture<T> reply, long millis, Function<? super Exception, ? extends RuntimeException> noAnswer) {
        return reply(reply, millis, noAnswer, (missing, made) -> made.apply(missing));
    }

    /**
     * {@link #reply(CompletableFuture, long, Function)}, where {@code noAnswer} also gets {@code about} (such as
     * the key the command was about), so that a caller can keep it in a field: the wait makes no
     * lambda.
     *
     * @return the reply, or null as {@code noAnswer} says
     */
    public <T, C> T reply(
            CompletableFuture<T> reply,
            long millis,
            C about,
            BiFunction<? super Exception, ? super C, ? extends RuntimeException> noAnswer) {
        Exception missing;
        try {
            return runtime.await(reply, TimeUnit.MILLISECONDS.toNanos(millis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            missing = e;
        } catch (ExecutionException | TimeoutException e) {
            missing = e;
        }
        RuntimeException thrown = noAnswer.apply(missing, about);
        if (thrown != null) {
            throw thrown;
        }
        return null;
    }

    /** A {@link #reply} whose missing answer changes nothing: the wait returns null. */
    public <T> T replyOrNull(CompletableFuture<T> reply, long millis) {
        return reply(reply, millis, e -> null);
    }
}
