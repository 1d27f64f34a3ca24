package dev.dlock.micrometer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The counts behind the {@value DlockMetrics#LEASES_ACTIVE} gauges, one per registry and tag set.
 * A registry keeps the first gauge registered under a name and tags and ignores the object a later
 * registration would read, so every {@link DlockMetrics} recording into one registry with the same
 * tags must count in the same object, or the gauge would show only the first one's holds. Held
 * weakly by registry: gone with it. Thread-safe.
 */
final class ActiveLeases {
    private static final Map<MeterRegistry, Map<Tags, AtomicLong>> BY_REGISTRY = new WeakHashMap<>();

    private ActiveLeases() {}

    /** The count that the gauge with these tags in this registry reads, registering the gauge if new. */
    static synchronized AtomicLong gauge(MeterRegistry registry, Tags tags) {
        Map<Tags, AtomicLong> counts = BY_REGISTRY.computeIfAbsent(registry, r -> new HashMap<>());
        AtomicLong count = counts.get(tags);
        if (count == null) {
            count = new AtomicLong();
            counts.put(tags, count);
            Gauge.builder(DlockMetrics.LEASES_ACTIVE, count, AtomicLong::get)
                    .description("Holds started and not yet released or lost")
                    .baseUnit(LockMeters.LEASES)
                    .tags(tags)
                    .register(registry);
        }
        return count;
    }
}
