package dev.dlock.internal.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.LockLostException;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.LockRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lease state machine every lease shares: one end, released or lost, whoever races; the loss
 * reported once by a release and counted as reported by a re-entry; listeners and {@code whenLost()}
 * told once, on the callback executor, after the lease's own effects.
 */
final class LeaseStateTest {
    private final ExecutorService callbackPool = Executors.newSingleThreadExecutor(r -> new Thread(r, "callback"));
    private final Callbacks callbacks = Callbacks.on(
            callbackPool, LockRuntime.system("dlock-timer-test"), "0123456789abcdef", new Lifecycle("redis://x"));
    private final LeaseState state = new LeaseState(callbacks);
    private final LockLostException loss = new LockLostException("n", 7, "test");

    @AfterEach
    void stop() {
        callbackPool.shutdownNow();
    }

    @Test
    void aReleasedLease_cannotBeLost_andReportsNoLoss() {
        assertThat(state.toReleased()).isTrue();
        assertThat(state.toLost()).isFalse();
        assertThat(state.toReleased()).isFalse();
        assertThat(state.get()).isEqualTo(LeaseState.State.RELEASED);
        assertThat(state.isHeld()).isFalse();
        assertThat(state.reportLossOnce()).isNull();
        assertThat(state.reportLoss()).isNull();
        assertThat(state.whenLost()).isNotDone();
    }

    @Test
    void aLostLease_cannotBeReleased_andARelease_reportsTheLossOnce() {
        assertThat(state.toLost()).isTrue();
        state.lost(loss, () -> {});
        assertThat(state.toReleased()).isFalse();
        assertThat(state.toLost()).isFalse();
        assertThat(state.toString()).isEqualTo("LOST");
        assertThat(state.reportLossOnce()).isSameAs(loss);
        assertThat(state.reportLossOnce()).isNull();
    }

    @Test
    void aReentry_getsTheLossEveryTime_andCountsItAsReported() {
        assertThat(state.toLost()).isTrue();
        state.lost(loss, () -> {});
        assertThat(state.reportLoss()).isSameAs(loss);
        assertThat(state.reportLoss()).isSameAs(loss);
        assertThat(state.reportLossOnce()).as("the unlock after the re-entry").isNull();
    }

    @Test
    void aReleaseThatLostTheRace_waitsForTheLossToBeRecorded() throws Exception {
        assertThat(state.toLost()).isTrue();
        CompletableFuture<LockLostException> reported = CompletableFuture.supplyAsync(state::reportLossOnce);
        Thread.sleep(50);
        assertThat(reported).as("reported before the loss exists").isNotDone();
        state.lost(loss, () -> {});
        assertThat(reported.get(5, TimeUnit.SECONDS)).isSameAs(loss);
    }

    @Test
    void racingEnds_haveOneWinner() throws Exception {
        ExecutorService racers = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 200; round++) {
                LeaseState s = new LeaseState(callbacks);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Boolean>> ends = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    boolean release = i % 2 == 0;
                    ends.add(racers.submit(() -> {
                        go.await();
                        return release ? s.toReleased() : s.toLost();
                    }));
                }
                go.countDown();
                int winners = 0;
                for (Future<Boolean> end : ends) {
                    winners += end.get(5, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(winners).as("round %d", round).isEqualTo(1);
            }
        } finally {
            racers.shutdownNow();
        }
    }

    @Test
    void listeners_runOnce_onTheCallbackExecutor_afterTheLeasesEffects_andOneThatThrowsStopsNoOther() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch told = new CountDownLatch(3);
        state.onLost(l -> {
            seen.add("first " + Thread.currentThread().getName());
            told.countDown();
            throw new IllegalStateException("a listener's bug");
        });
        state.onLost(l -> {
            seen.add("second " + Thread.currentThread().getName());
            told.countDown();
        });
        CompletableFuture<LockLostException> future = state.whenLost();
        future.thenRun(() -> {
            seen.add("future " + Thread.currentThread().getName());
            told.countDown();
        });
        assertThat(state.toLost()).isTrue();
        state.lost(loss, () -> seen.add("effects " + Thread.currentThread().getName()));
        assertThat(told.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(seen.get(0)).isEqualTo("effects " + Thread.currentThread().getName());
        assertThat(seen.subList(1, 4))
                .containsExactlyInAnyOrder("first callback", "second callback", "future callback");
        assertThat(future.get()).isSameAs(loss);
    }

    @Test
    void aListenerAddedAfterTheLoss_runsAtOnce_andWhenLost_isCompleted() throws Exception {
        assertThat(state.toLost()).isTrue();
        state.lost(loss, () -> {});
        CompletableFuture<LockLostException> heard = new CompletableFuture<>();
        state.onLost(heard::complete);
        assertThat(heard.get(5, TimeUnit.SECONDS)).isSameAs(loss);
        assertThat(state.whenLost()).isCompletedWithValue(loss);
    }

    @Test
    void eachListener_runsExactlyOnce_whenRegistrationsRaceTheLoss() throws Exception {
        ExecutorService registrars = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 100; round++) {
                LeaseState s = new LeaseState(callbacks);
                AtomicInteger runs = new AtomicInteger();
                CountDownLatch go = new CountDownLatch(1);
                Future<?> register = registrars.submit(() -> {
                    go.await();
                    for (int i = 0; i < 20; i++) {
                        s.onLost(l -> runs.incrementAndGet());
                    }
                    return null;
                });
                Future<?> lose = registrars.submit(() -> {
                    go.await();
                    if (s.toLost()) {
                        s.lost(loss, () -> {});
                    }
                    return null;
                });
                go.countDown();
                register.get(5, TimeUnit.SECONDS);
                lose.get(5, TimeUnit.SECONDS);
                // the one callback thread runs what it was handed in order: every listener ran before this
                callbackPool.submit(() -> {}).get(5, TimeUnit.SECONDS);
                assertThat(runs.get()).as("round %d", round).isEqualTo(20);
            }
        } finally {
            registrars.shutdownNow();
        }
    }

    @Test
    void aReleaseThatFoundTheLeaseLost_staysReleased_reportsNothingMore_andTellsTheListeners() throws Exception {
        CompletableFuture<LockLostException> heard = new CompletableFuture<>();
        state.onLost(heard::complete);
        assertThat(state.toReleased()).isTrue();
        List<String> effects = new ArrayList<>();
        state.lostOnRelease(loss, () -> effects.add("events"));
        assertThat(effects).containsExactly("events");
        assertThat(heard.get(5, TimeUnit.SECONDS)).isSameAs(loss);
        assertThat(state.get()).isEqualTo(LeaseState.State.RELEASED);
        assertThat(state.reportLossOnce()).isNull();
        assertThat(state.whenLost()).isCompletedWithValue(loss);
    }
}
