package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The logical caller threads: one thread at a time, waits that end by the simulated clock, interrupts as events, a
 * failing or stuck caller failing the run, and no thread left after {@code close()}.
 */
@Timeout(60)
final class CallerThreadsTest {
    private static final long MS = 1_000_000;

    private final EventLoop loop = new EventLoop();
    private final SimClientRuntime clock = new SimClientRuntime(loop, 0, 0, "test-client-1");

    @Test
    void aTimedWait_endsOnTheSimulatedClock_whileTheLoopRuns() throws Exception {
        List<String> seen = new ArrayList<>();
        try (CallerThreads threads = new CallerThreads(loop)) {
            clock.callers(threads);
            CallerThreads.Caller caller = threads.start("c1");
            CompletableFuture<String> never = new CompletableFuture<>();
            caller.submit(0, () -> {
                try {
                    clock.await(never, 5_000 * MS);
                    seen.add("answered");
                } catch (TimeoutException e) {
                    seen.add("timed out at " + loop.now() / MS);
                } catch (Exception e) {
                    seen.add(e.toString());
                }
            });
            loop.after(1_000 * MS, () -> seen.add("loop at " + loop.now() / MS));
            long t0 = System.nanoTime();
            while (loop.step()) {}
            assertThat(seen).containsExactly("loop at 1000", "timed out at 5000");
            assertThat(System.nanoTime() - t0).as("real time").isLessThan(TimeUnit.SECONDS.toNanos(4));
            assertThat(threads.failure()).isNull();
        }
    }

    @Test
    void aWait_returnsWhenItsFutureCompletes_asAnEvent() {
        List<String> seen = new ArrayList<>();
        try (CallerThreads threads = new CallerThreads(loop)) {
            clock.callers(threads);
            CallerThreads.Caller caller = threads.start("c1");
            CompletableFuture<String> reply = new CompletableFuture<>();
            caller.submit(0, () -> {
                try {
                    seen.add(clock.await(reply, dev.dlock.spi.ClientRuntime.FOREVER) + " at " + loop.now() / MS);
                } catch (Exception e) {
                    seen.add(e.toString());
                }
            });
            loop.after(300 * MS, () -> reply.complete("hold"));
            while (loop.step()) {}
            assertThat(seen).containsExactly("hold at 300");
        }
    }

    @Test
    void anInterrupt_isAnEvent_thatEndsTheWait() {
        List<String> seen = new ArrayList<>();
        try (CallerThreads threads = new CallerThreads(loop)) {
            clock.callers(threads);
            CallerThreads.Caller caller = threads.start("c1");
            caller.submit(0, () -> {
                caller.interrupt(200 * MS, caller.running());
                try {
                    clock.await(new CompletableFuture<>(), dev.dlock.spi.ClientRuntime.FOREVER);
                } catch (InterruptedException e) {
                    seen.add("interrupted at " + loop.now() / MS + ", flag "
                            + Thread.currentThread().isInterrupted());
                } catch (Exception e) {
                    seen.add(e.toString());
                }
            });
            while (loop.step()) {}
            assertThat(seen).containsExactly("interrupted at 200, flag false");
        }
    }

    @Test
    void aCallerThatThrows_failsTheRun_namingIt() {
        try (CallerThreads threads = new CallerThreads(loop)) {
            threads.start("c7").submit(0, () -> {
                throw new IllegalStateException("boom");
            });
            while (loop.step()) {}
            assertThat(threads.failure()).contains("c7 threw java.lang.IllegalStateException: boom");
        }
    }

    @Test
    void aCallerBlockedOutsideTheRuntime_failsTheRunByTheWatchdog_notAHang() {
        CountDownLatch never = new CountDownLatch(1);
        try (CallerThreads threads = new CallerThreads(loop, 500)) {
            threads.start("stuck").submit(0, () -> {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            while (loop.step()) {}
            assertThat(threads.failure())
                    .contains("stuck kept its turn for 500 ms")
                    .contains("CountDownLatch.await");
        } finally {
            never.countDown();
        }
    }

    @Test
    void close_stopsCallersIdleAndMidWait() {
        CallerThreads threads = new CallerThreads(loop);
        clock.callers(threads);
        CallerThreads.Caller idle = threads.start("idle");
        CallerThreads.Caller waiting = threads.start("waiting");
        waiting.submit(0, () -> {
            try {
                clock.await(new CompletableFuture<>(), dev.dlock.spi.ClientRuntime.FOREVER);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        while (loop.step()) {}
        assertThat(waiting.isAlive()).isTrue();
        threads.close();
        assertThat(idle.isAlive()).isFalse();
        assertThat(waiting.isAlive()).isFalse();
        assertThat(threads.failure()).isNull();
    }

    @Test
    void aWaitOnTheLoopsThread_isRefused_unlessDone() throws Exception {
        assertThat(clock.await(CompletableFuture.completedFuture("x"), 0)).isEqualTo("x");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> clock.await(new CompletableFuture<>(), 0))
                .isInstanceOf(IllegalStateException.class);
    }
}
