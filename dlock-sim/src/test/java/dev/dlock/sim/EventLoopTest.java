package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The world's event loop: time moves to each event in order; a cancelled event neither runs nor moves time. */
final class EventLoopTest {
    private final EventLoop loop = new EventLoop();
    private final List<String> ran = new ArrayList<>();

    @Test
    void runFor_stopsAtItsHorizon_evenPastACancelledEvent() {
        loop.after(10, () -> ran.add("a")).cancel();
        loop.after(20, () -> ran.add("b"));
        loop.runFor(15);
        assertThat(ran).isEmpty();
        assertThat(loop.now()).isEqualTo(15);
        loop.runFor(5);
        assertThat(ran).containsExactly("b");
        assertThat(loop.steps()).isEqualTo(1);
    }

    @Test
    void runUntil_stopsAtItsHorizon_evenPastACancelledEvent() {
        loop.after(10, () -> ran.add("a")).cancel();
        loop.after(20, () -> ran.add("b"));
        assertThat(loop.runUntil(() -> !ran.isEmpty(), 15)).isFalse();
        assertThat(ran).isEmpty();
        assertThat(loop.runUntil(() -> !ran.isEmpty(), 25)).isTrue();
        assertThat(ran).containsExactly("b");
    }

    @Test
    void eventsDueAtOnce_runInTheOrderScheduled() {
        loop.after(5, () -> ran.add("first"));
        loop.after(5, () -> ran.add("second"));
        loop.after(1, () -> loop.after(4, () -> ran.add("third")));
        loop.runFor(10);
        assertThat(ran).containsExactly("first", "second", "third");
    }

    @Test
    void suspend_movesTimeAndEveryWaitingEvent_inTheirOrder() {
        loop.after(5, () -> ran.add("first:" + loop.now()));
        loop.after(3, () -> ran.add("second:" + loop.now())).cancel();
        loop.after(7, () -> ran.add("third:" + loop.now()));
        loop.runFor(1);
        loop.suspend(1_000);
        assertThat(loop.now()).isEqualTo(1_001);
        assertThat(ran).isEmpty();
        loop.runFor(10);
        assertThat(ran).containsExactly("first:1005", "third:1007");
        assertThat(loop.steps()).isEqualTo(2);
    }
}
