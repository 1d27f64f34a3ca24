package dev.dlock.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockListener.Outcome;
import dev.dlock.LockLostException;
import dev.dlock.contract.Workers;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

final class DlockMetricsTest {
    private final MeterRegistry registry = new SimpleMeterRegistry();

    private static LockLostException loss(String name) {
        return new LockLostException(name, 7, "the renewal found the key gone");
    }

    private double count(String name, String... tags) {
        var search = registry.find(name).tags(tags);
        Meter meter = search.meter();
        assertThat(meter).as(name + " " + List.of(tags)).isNotNull();
        return switch (meter.getId().getType()) {
            case COUNTER -> search.counter().count();
            case GAUGE -> search.gauge().value();
            case TIMER -> search.timer().count();
            default -> throw new AssertionError(meter.getId());
        };
    }

    @Test
    void registersItsMeters_atConstruction_withDescriptionsAndBaseUnits() {
        new DlockMetrics(registry);

        assertThat(registry.getMeters())
                .extracting(m -> m.getId().getName() + m.getId().getTags())
                .containsExactlyInAnyOrder(
                        "dlock.acquire[tag(outcome=acquired)]",
                        "dlock.acquire[tag(outcome=busy)]",
                        "dlock.acquire[tag(outcome=cancelled)]",
                        "dlock.acquire[tag(outcome=failed)]",
                        "dlock.leases.active[]",
                        "dlock.leases.ended[tag(outcome=expired)]",
                        "dlock.leases.ended[tag(outcome=lost)]",
                        "dlock.leases.ended[tag(outcome=released)]",
                        "dlock.renewals[tag(outcome=failed)]",
                        "dlock.renewals[tag(outcome=ok)]");
        assertThat(registry.getMeters()).allSatisfy(m -> {
            assertThat(m.getId().getDescription()).as(m.getId().getName()).isNotBlank();
            if (m.getId().getType() != Meter.Type.TIMER) { // a timer's unit is the registry's (seconds)
                assertThat(m.getId().getBaseUnit()).as(m.getId().getName()).isEqualTo("leases");
            }
            assertThat(m.getId().getName()).matches("[a-z]+(\\.[a-z]+)*");
        });
        assertThat(registry.get("dlock.leases.active").gauge().value()).isZero();
        assertThat(registry.get("dlock.acquire").tag("outcome", "busy").timer().count())
                .isZero();
    }

    @Test
    void acquire_recordsItsWait_underItsOutcome() {
        DlockMetrics metrics = new DlockMetrics(registry);

        metrics.acquire("a", Outcome.ACQUIRED, Duration.ofMillis(2));
        metrics.acquire("a", Outcome.ACQUIRED, Duration.ofMillis(4));
        metrics.acquire("b", Outcome.BUSY, Duration.ofMillis(250));
        metrics.acquire("c", Outcome.FAILED, Duration.ofSeconds(5));
        metrics.acquire("d", Outcome.CANCELLED, Duration.ZERO);

        Timer acquired =
                registry.get("dlock.acquire").tag("outcome", "acquired").timer();
        assertThat(acquired.count()).isEqualTo(2);
        assertThat(acquired.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(6.0);
        assertThat(acquired.max(TimeUnit.MILLISECONDS)).isEqualTo(4.0);
        assertThat(registry.get("dlock.acquire").tag("outcome", "busy").timer().totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(250.0);
        assertThat(count("dlock.acquire", "outcome", "failed")).isEqualTo(1);
        assertThat(count("dlock.acquire", "outcome", "cancelled")).isEqualTo(1);
        assertThat(registry.find("dlock.acquire").tagKeys("lock").meters()).isEmpty();
    }

    @Test
    void holds_startedMinusEnded_isTheGauge_andEachEndIsCountedByHowItEnded() {
        DlockMetrics metrics = new DlockMetrics(registry);

        metrics.holdStarted("a");
        metrics.holdStarted("b");
        metrics.holdStarted("a");
        assertThat(count("dlock.leases.active")).isEqualTo(3);

        metrics.holdReleased("a");
        metrics.holdLost("b", loss("b"));
        assertThat(count("dlock.leases.active")).isEqualTo(1);
        assertThat(count("dlock.leases.ended", "outcome", "released")).isEqualTo(1);
        assertThat(count("dlock.leases.ended", "outcome", "lost")).isEqualTo(1);

        metrics.holdStarted("c");
        metrics.holdExpired("c", loss("c"));
        assertThat(count("dlock.leases.ended", "outcome", "expired")).isEqualTo(1);
        assertThat(count("dlock.leases.ended", "outcome", "lost"))
                .as("an expiry is no loss")
                .isEqualTo(1);

        metrics.holdReleased("a");
        assertThat(count("dlock.leases.active")).isZero();
        assertThat(count("dlock.leases.ended", "outcome", "released")).isEqualTo(2);
    }

    @Test
    void renewal_countsTheHoldsOfEachBatch_byWhetherRedisAnswered() {
        DlockMetrics metrics = new DlockMetrics(registry);

        metrics.renewal(1000, true);
        metrics.renewal(3, true);
        metrics.renewal(2, false);

        assertThat(count("dlock.renewals", "outcome", "ok")).isEqualTo(1003);
        assertThat(count("dlock.renewals", "outcome", "failed")).isEqualTo(2);
    }

    @Test
    void commonTags_areOnEveryMeter() {
        DlockMetrics metrics = DlockMetrics.builder(registry)
                .tag("client", "orders")
                .tags(Tags.of("region", "eu"))
                .build();
        metrics.acquire("a", Outcome.ACQUIRED, Duration.ZERO);
        metrics.holdStarted("a");
        metrics.renewal(1, true);

        assertThat(registry.getMeters())
                .hasSize(10)
                .allSatisfy(m ->
                        assertThat(m.getId().getTags()).contains(Tag.of("client", "orders"), Tag.of("region", "eu")));
        assertThat(count("dlock.leases.active", "client", "orders")).isEqualTo(1);
        assertThat(metrics.toString()).contains("client", "orders");
    }

    @Test
    void builder_rejectsTheTagsItSetsItself_nulls_andALimitBelowOne() {
        DlockMetrics.Builder builder = DlockMetrics.builder(registry);

        assertThatThrownBy(() -> builder.tag("outcome", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outcome");
        assertThatThrownBy(() -> builder.tags(Tags.of("lock", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lock");
        assertThatThrownBy(() -> builder.lockTag(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
        assertThatThrownBy(() -> builder.tag(null, "x")).hasMessageContaining("key");
        assertThatThrownBy(() -> builder.tag("k", null)).hasMessageContaining("value");
        assertThatThrownBy(() -> new DlockMetrics(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("registry");
    }

    @Test
    void lockTag_givesTheFirstNamesTheirOwnMeters_andFoldsTheRestIntoOther() {
        DlockMetrics metrics = DlockMetrics.builder(registry).lockTag(2).build();
        assertThat(registry.find("dlock.acquire").meters())
                .as("no meter of acquires before a lock name is seen")
                .isEmpty();

        for (String name : List.of("a", "b", "c", "d", "a")) {
            metrics.acquire(name, Outcome.ACQUIRED, Duration.ofMillis(1));
            metrics.holdStarted(name);
        }
        metrics.holdReleased("c");
        metrics.holdLost("a", loss("a"));
        metrics.renewal(5, true);

        assertThat(registry.find("dlock.acquire").meters())
                .extracting(m -> m.getId().getTag("lock"))
                .containsOnly("a", "b", DlockMetrics.OTHER_LOCKS);
        assertThat(count("dlock.acquire", "lock", "a", "outcome", "acquired")).isEqualTo(2);
        assertThat(count("dlock.acquire", "lock", "b", "outcome", "acquired")).isEqualTo(1);
        assertThat(count("dlock.acquire", "lock", "_other", "outcome", "acquired"))
                .isEqualTo(2);
        assertThat(count("dlock.leases.active", "lock", "a")).isEqualTo(1);
        assertThat(count("dlock.leases.active", "lock", "_other")).isEqualTo(1);
        assertThat(count("dlock.leases.ended", "lock", "a", "outcome", "lost")).isEqualTo(1);
        assertThat(count("dlock.leases.ended", "lock", "_other", "outcome", "released"))
                .isEqualTo(1);
        assertThat(count("dlock.renewals", "outcome", "ok")).isEqualTo(5);
        assertThat(registry.find("dlock.renewals").tagKeys("lock").meters())
                .as("renewals come in batches of many locks")
                .isEmpty();
        assertThat(metrics.toString()).contains("at most 2");
    }

    @Test
    void twoInstances_withTheSameTags_addUp_gaugeIncluded() {
        DlockMetrics one = new DlockMetrics(registry);
        DlockMetrics two = new DlockMetrics(registry);

        one.holdStarted("a");
        two.holdStarted("b");
        two.holdStarted("c");
        one.holdReleased("a");
        one.acquire("a", Outcome.BUSY, Duration.ZERO);
        two.acquire("b", Outcome.BUSY, Duration.ZERO);

        assertThat(count("dlock.leases.active")).isEqualTo(2);
        assertThat(count("dlock.acquire", "outcome", "busy")).isEqualTo(2);
        new DlockMetrics(new SimpleMeterRegistry()).holdStarted("z"); // another registry, another count
        assertThat(count("dlock.leases.active")).isEqualTo(2);
    }

    @Test
    void threads_reportingAtOnce_loseNoEvent_andTagAtMostTheLimitOfNames() throws Exception {
        int threads = 4;
        int rounds = 20_000;
        int limit = 10;
        DlockMetrics metrics =
                DlockMetrics.builder(registry).tag("client", "c").lockTag(limit).build();

        Workers.run("metrics", threads, Duration.ofSeconds(30), worker -> {
            for (int i = 0; i < rounds; i++) {
                String name = "lock-" + (i % 50);
                metrics.acquire(name, Outcome.ACQUIRED, Duration.ofNanos(i));
                metrics.holdStarted(name);
                if (i % 10 == 0) {
                    metrics.holdLost(name, loss(name));
                } else {
                    metrics.holdReleased(name);
                }
                metrics.renewal(2, i % 2 == 0);
            }
        });

        Set<String> tagged = registry.find("dlock.acquire").meters().stream()
                .map(m -> m.getId().getTag("lock"))
                .collect(Collectors.toSet());
        assertThat(tagged).hasSize(limit + 1).contains(DlockMetrics.OTHER_LOCKS);
        double acquired = registry.find("dlock.acquire").tag("outcome", "acquired").timers().stream()
                .mapToLong(Timer::count)
                .sum();
        assertThat(acquired).isEqualTo(threads * rounds);
        assertThat(registry.find("dlock.leases.active").gauges())
                .hasSize(limit + 1)
                .allSatisfy(g -> assertThat(g.value()).isZero());
        double lost = registry.find("dlock.leases.ended").tag("outcome", "lost").counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
        assertThat(lost).isEqualTo(threads * rounds / 10);
        assertThat(count("dlock.renewals", "outcome", "ok")).isEqualTo(threads * rounds);
        assertThat(count("dlock.renewals", "outcome", "failed")).isEqualTo(threads * rounds);
    }
}
