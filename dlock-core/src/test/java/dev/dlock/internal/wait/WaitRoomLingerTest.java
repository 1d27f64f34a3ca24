package dev.dlock.internal.wait;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.internal.testing.FakeTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The linger of an idle channel, on a scripted clock and a timer whose tasks the test runs: one idle
 * check per channel at a time however many waiters leave, and an unsubscribe only after a whole linger
 * without members.
 */
final class WaitRoomLingerTest {
    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong();
    private final FakeTransport transport = new FakeTransport();
    private final ManualTimer timer = new ManualTimer();
    private final WaitRoom room = new WaitRoom(transport, timer, now::get, false, java.time.Duration.ofSeconds(3));

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    @Test
    void manyWaitersLeaving_scheduleOneIdleCheck_andTheChannelIsDroppedAWholeLingerAfterTheLastLeft() {
        for (int i = 0; i < 100; i++) {
            room.leave(room.join("ch", "owner-" + i, "owner-" + i, null));
            now.addAndGet(MS);
        }
        assertThat(transport.subscribed).containsExactly("ch");
        assertThat(timer.delays).containsExactly(WaitRoom.LINGER_MILLIS * MS);

        now.set(WaitRoom.LINGER_MILLIS * MS); // the last waiter left at 99 ms
        timer.runNext();
        assertThat(transport.unsubscribed).isEmpty();
        assertThat(timer.delays).last().isEqualTo(99 * MS);

        now.addAndGet(99 * MS);
        timer.runNext();
        assertThat(transport.unsubscribed).containsExactly("ch");
        assertThat(room.isEmpty()).isTrue();
        assertThat(timer.tasks).isEmpty();
    }

    @Test
    void aFailedSubscribe_isRetriedByTheNextWaiter_notReusedUntilTheChannelIdles() {
        transport.failNextSubscribe(
                new IllegalStateException("NOPERM this user has no permissions to access the 'ch' channel"));
        WaitRoom.Waiter first = room.join("ch", "a", "1", null);
        assertThat(first.subscribed()).isCompletedExceptionally();
        WaitRoom.Waiter second = room.join("ch", "b", "2", null);
        assertThat(second.subscribed()).isCompleted().isNotCompletedExceptionally();
        assertThat(transport.subscribed).containsExactly("ch", "ch");
        room.leave(first); // the failed subscription's last member: nothing to unsubscribe for it
        assertThat(timer.tasks).isEmpty();
        room.leave(second);
        now.set(WaitRoom.LINGER_MILLIS * MS);
        timer.runNext();
        assertThat(transport.unsubscribed).containsExactly("ch");
        assertThat(room.isEmpty()).isTrue();
    }

    @Test
    void aChannelInUseWhenItsCheckRuns_staysSubscribed_andTheNextLeaveSchedulesAnew() {
        room.leave(room.join("ch", "a", "a", null));
        WaitRoom.Waiter back = room.join("ch", "b", "b", null);
        now.set(WaitRoom.LINGER_MILLIS * MS);
        timer.runNext();
        assertThat(transport.unsubscribed).isEmpty();
        assertThat(timer.tasks).isEmpty();

        room.leave(back);
        assertThat(timer.tasks).hasSize(1);
        now.addAndGet(WaitRoom.LINGER_MILLIS * MS);
        timer.runNext();
        assertThat(transport.unsubscribed).containsExactly("ch");
        assertThat(transport.subscribed).containsExactly("ch");
    }

    /** A timer that records what it is given and runs it only when the test says so. */
    private static final class ManualTimer extends ScheduledThreadPoolExecutor {
        final List<Runnable> tasks = new ArrayList<>();
        final List<Long> delays = new ArrayList<>();

        ManualTimer() {
            super(1);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            tasks.add(command);
            delays.add(unit.toNanos(delay));
            return null;
        }

        void runNext() {
            assertThat(tasks).isNotEmpty();
            tasks.remove(0).run();
        }
    }
}
