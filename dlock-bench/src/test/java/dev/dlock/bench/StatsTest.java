package dev.dlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The stats code behind the report; no Redis, no waiting. */
final class StatsTest {

    @Test
    void spread_ofOddCount_isMiddleValueWithMinAndMax() {
        Spread s = Spread.of(3.0, 1.0, 2.0);
        assertThat(s).isEqualTo(new Spread(2.0, 1.0, 3.0, 3));
    }

    @Test
    void spread_ofEvenCount_averagesTheMiddlePair() {
        assertThat(Spread.of(4.0, 1.0, 2.0, 3.0).median()).isEqualTo(2.5);
    }

    @Test
    void spread_leavesOutUnmeasuredRuns() {
        Spread s = Spread.of(Double.NaN, 5.0);
        assertThat(s.runs()).isEqualTo(1);
        assertThat(s.median()).isEqualTo(5.0);
        assertThat(Spread.of(List.of(Double.NaN)).isKnown()).isFalse();
    }

    @Test
    void holds_handoffIsNextAcquireMinusPreviousRelease_andCountsReacquires() {
        Holds holds = new Holds(8);
        holds.record(0, 100_000, 110_000, 1, 0);
        holds.record(1, 130_000, 140_000, 1, 5_000); // same holder again, 20 µs after its release
        holds.record(2, 150_000, 160_000, 2, 9_000); // another holder, 10 µs after
        Holds.Fairness f = holds.analyse(new Window(0, 1_000_000), 3);
        assertThat(f.reacquireShare()).isEqualTo(50.0);
        assertThat(f.handoff().getTotalCount()).isEqualTo(2);
        assertThat(f.handoff().getMaxValue()).isBetween(19_950L, 20_050L);
        assertThat(f.handoff().getMinValue()).isBetween(9_950L, 10_050L);
        assertThat(f.waits().getTotalCount()).isEqualTo(3);
    }

    @Test
    void holds_overtakingReplyCountsAsZeroHandoff_andOutOfWindowHoldsAreIgnored() {
        Holds holds = new Holds(4);
        holds.record(0, 100, 500, 1, 0);
        holds.record(1, 400, 900, 2, 0); // acquired before the previous release returned
        holds.record(2, 5_000, 6_000, 1, 0); // outside the window
        Holds.Fairness f = holds.analyse(new Window(0, 1_000), 3);
        assertThat(f.handoff().getTotalCount()).isEqualTo(1);
        assertThat(f.handoff().getMaxValue()).isZero();
        assertThat(f.reacquireShare()).isZero();
    }

    @Test
    void commandOrigins_tellScriptCallsFromClientCalls() {
        CommandOrigins o = new CommandOrigins();
        o.count("+1700000000.000001 [0 127.0.0.1:5000] \"evalsha\" \"abc\" \"1\" \"k\"");
        o.count("+1700000000.000002 [0 lua] \"set\" \"k\" \"v\"");
        o.count("+1700000000.000003 [0 127.0.0.1:5001] \"SET\" \"k\" \"v\"");
        o.count("+OK");
        assertThat(o.topLevelShare("evalsha")).isEqualTo(1.0);
        assertThat(o.topLevelShare("set")).isEqualTo(0.5);
        assertThat(o.topLevelShare("client|setname")).isEqualTo(1.0); // not seen: counted as a client's
    }

    @Test
    void redisDelta_topLevelWeighsEachCommandByItsShare() {
        CommandOrigins o = new CommandOrigins();
        o.count("+1 [0 127.0.0.1:1] \"evalsha\"");
        o.count("+1 [0 lua] \"hset\"");
        RedisStats before = new RedisStats(java.util.Map.of("evalsha", 10L, "info", 1L), 1.0);
        RedisStats after = new RedisStats(java.util.Map.of("evalsha", 30L, "hset", 40L, "info", 3L), 1.5);
        RedisStats.Delta d = after.since(before);
        assertThat(d.total()).isEqualTo(60); // our INFO calls are left out
        assertThat(d.topLevel(o)).isEqualTo(20.0);
        assertThat(d.scripts()).isEqualTo(20);
        assertThat(d.cpuSeconds()).isEqualTo(0.5);
    }

    @Test
    void goals_compareMedianWithBound() {
        Goals.Goal atLeast = new Goals.Goal("x", Spread.of(0.9, 1.0, 1.1), "%.2f", 0.95, true);
        assertThat(atLeast.met()).isTrue();
        assertThat(atLeast.metByEveryRun()).isFalse();
        Goals.Goal atMost = new Goals.Goal("y", Spread.of(30.0), "%.0f", 25, false);
        assertThat(atMost.met()).isFalse();
    }
}
