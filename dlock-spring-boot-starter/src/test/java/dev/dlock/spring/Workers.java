package dev.dlock.spring;

import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/** Worker threads for the tests: a worker that throws or hangs fails the test that waits for it. */
final class Workers implements AutoCloseable {
    static final Duration PATIENCE = Timing.scaled(Duration.ofSeconds(20));

    private final ExecutorService pool = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "test-worker");
        thread.setDaemon(true);
        return thread;
    });

    <T> Future<T> start(Callable<T> task) {
        return pool.submit(task);
    }

    /** Starts {@code call} on a worker with a step of its own, and returns once the method runs (holds its lock). */
    <T> Holding<T> holding(Function<Step, T> call) throws InterruptedException {
        Step step = new Step();
        Future<T> result = start(() -> call.apply(step));
        step.awaitEntered();
        return new Holding<>(step, result);
    }

    /** A worker inside a method, waiting for the test to let it return. */
    record Holding<T>(Step step, Future<T> result) {
        T releaseAndJoin() {
            step.release();
            return join(result);
        }
    }

    /** The worker's result; its exception or a hang fails the test. */
    static <T> T join(Future<T> future) {
        try {
            return future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("a worker threw: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new AssertionError("a worker hung for " + PATIENCE, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    /** A method that lets the test know it runs, then waits for the test's go to return. */
    static final class Step {
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        /** Called by the method under the lock. */
        void arriveAndWait() {
            entered.countDown();
            try {
                if (!release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("the test never let the method return");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }

        void awaitEntered() throws InterruptedException {
            if (!entered.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the method never started");
            }
        }

        boolean hasEntered() {
            return entered.getCount() == 0;
        }

        void release() {
            release.countDown();
        }

        /** A step that lets the method return at once. */
        static Step passing() {
            Step step = new Step();
            step.release();
            return step;
        }
    }
}
