package dev.dlock.micrometer;

import dev.dlock.LockListener.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters of acquires and holds for one set of tags: all locks, one lock name, or the names past
 * the limit. Registered at construction; thread-safe.
 */
final class LockMeters {
    /** The base unit of the counts of holds. */
    static final String LEASES = "leases";

    private final Map<Outcome, Timer> acquires = new EnumMap<>(Outcome.class);
    private final AtomicLong active;
    private final Counter released;
    private final Counter lost;
    private final Counter expired;

    LockMeters(MeterRegistry registry, Tags tags) {
        for (Outcome outcome : Outcome.values()) {
            acquires.put(
                    outcome,
                    Timer.builder(DlockMetrics.ACQUIRE)
                            .description("Acquires that needed a new hold, from the call to their outcome:"
                                    + " acquired, busy (the wait ran out), failed or cancelled")
                            .tags(tags)
                            .tag(DlockMetrics.OUTCOME_TAG, outcome.name().toLowerCase(Locale.ROOT))
                            .register(registry));
        }
        active = ActiveLeases.gauge(registry, tags);
        released = ended(registry, tags, "released");
        lost = ended(registry, tags, "lost");
        expired = ended(registry, tags, "expired");
    }

    private static Counter ended(MeterRegistry registry, Tags tags, String outcome) {
        return Counter.builder(DlockMetrics.LEASES_ENDED)
                .description("Holds ended: released (also by the client's close), expired (a fixed lease"
                        + " time run out, as its holder chose) or lost (the key gone or taken, not renewed in time)")
                .baseUnit(LEASES)
                .tags(tags)
                .tag(DlockMetrics.OUTCOME_TAG, outcome)
                .register(registry);
    }

    void acquired(Outcome outcome, Duration waited) {
        acquires.get(outcome).record(waited);
    }

    void started() {
        active.incrementAndGet();
    }

    // The end is counted before the gauge drops: a reader that sees the gauge drop sees the end too.
    void released() {
        released.increment();
        active.decrementAndGet();
    }

    void lost() {
        lost.increment();
        active.decrementAndGet();
    }

    void expired() {
        expired.increment();
        active.decrementAndGet();
    }
}
