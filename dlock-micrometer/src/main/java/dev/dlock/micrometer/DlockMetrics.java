package dev.dlock.micrometer;

import dev.dlock.LockListener;
import dev.dlock.LockLostException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link LockListener} that records a client's lock events as Micrometer meters:
 *
 * <pre>{@code
 * LockClient client = LockClient.builder()
 *         .redisUri("redis://localhost:6379")
 *         .listener(new DlockMetrics(registry))
 *         .build();
 * }</pre>
 *
 * <table>
 *   <caption>The meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what it counts</th></tr>
 *   <tr><td>{@value #ACQUIRE}</td><td>timer</td><td>{@code outcome}: {@code acquired}, {@code busy},
 *       {@code failed}, {@code cancelled}</td><td>each acquire that needed a new hold, timed from the
 *       call to its outcome</td></tr>
 *   <tr><td>{@value #LEASES_ACTIVE}</td><td>gauge</td><td></td><td>holds started and not yet ended</td></tr>
 *   <tr><td>{@value #LEASES_ENDED}</td><td>counter</td><td>{@code outcome}: {@code released},
 *       {@code expired}, {@code lost}</td><td>holds ended</td></tr>
 *   <tr><td>{@value #RENEWALS}</td><td>counter</td><td>{@code outcome}: {@code ok}, {@code failed}</td>
 *       <td>holds in the watchdog's renewal calls, by whether Redis answered</td></tr>
 * </table>
 *
 * <p>Every meter also carries the common tags given to the {@link Builder} (such as the client's
 * name, to tell several clients apart), and, only when {@link Builder#lockTag(int)} turns it on, the
 * meters but {@value #RENEWALS} carry the lock's name as tag {@value #LOCK_TAG}. Meters that need no
 * lock name are registered at construction, so they read zero before the first event.
 *
 * <p>Several clients may share one instance, and several instances may share one registry: meters
 * with the same name and tags add up, the gauge included. Thread-safe; every event is a few atomic
 * updates (and, with the lock tag, a map look-up), as {@link LockListener} asks.
 */
public final class DlockMetrics implements LockListener {
    /** Name of the timer of acquires. */
    public static final String ACQUIRE = "dlock.acquire";
    /** Name of the gauge of holds open now. */
    public static final String LEASES_ACTIVE = "dlock.leases.active";
    /** Name of the counter of holds ended: released, expired or lost. */
    public static final String LEASES_ENDED = "dlock.leases.ended";
    /** Name of the counter of holds renewed by the watchdog. */
    public static final String RENEWALS = "dlock.renewals";
    /** The tag that says how an acquire, a hold or a renewal ended. */
    public static final String OUTCOME_TAG = "outcome";
    /** The tag of the lock name, when {@link Builder#lockTag(int)} turns it on. */
    public static final String LOCK_TAG = "lock";
    /** The {@value #LOCK_TAG} tag's value for every lock name past the limit of distinct names. */
    public static final String OTHER_LOCKS = "_other";

    private final MeterRegistry registry;
    private final Tags tags;
    private final int maxLockNames; // 0: no lock tag
    private final LockMeters allLocks; // without the lock tag; null with it
    private final ConcurrentMap<String, LockMeters> byName = new ConcurrentHashMap<>();
    private final AtomicInteger names = new AtomicInteger(); // distinct names tagged so far, at most maxLockNames
    private final Counter renewed;
    private final Counter renewalFailed;

    /**
     * Records into {@code registry} with the defaults: no common tags, no lock tag.
     *
     * @param registry the registry
     * @throws NullPointerException if {@code registry} is null
     */
    public DlockMetrics(MeterRegistry registry) {
        this(builder(registry));
    }

    private DlockMetrics(Builder builder) {
        this.registry = builder.registry;
        this.tags = builder.tags;
        this.maxLockNames = builder.maxLockNames;
        this.allLocks = maxLockNames == 0 ? new LockMeters(registry, tags) : null;
        this.renewed = renewals("ok");
        this.renewalFailed = renewals("failed");
    }

    /**
     * Returns a builder for an instance with common tags or the lock tag.
     *
     * @param registry the registry to record into
     * @return a new builder
     * @throws NullPointerException if {@code registry} is null
     */
    public static Builder builder(MeterRegistry registry) {
        return new Builder(registry);
    }

    private Counter renewals(String outcome) {
        return Counter.builder(RENEWALS)
                .description("Holds in the watchdog's batched renewal calls, by whether Redis answered (ok) or"
                        + " not (failed); a hold Redis no longer had counts as ok here and as lost in "
                        + LEASES_ENDED)
                .baseUnit(LockMeters.LEASES)
                .tags(tags)
                .tag(OUTCOME_TAG, outcome)
                .register(registry);
    }

    @Override
    public void acquire(String lockName, Outcome outcome, Duration waited) {
        meters(lockName).acquired(outcome, waited);
    }

    @Override
    public void holdStarted(String lockName) {
        meters(lockName).started();
    }

    @Override
    public void holdReleased(String lockName) {
        meters(lockName).released();
    }

    @Override
    public void holdLost(String lockName, LockLostException loss) {
        meters(lockName).lost();
    }

    @Override
    public void holdExpired(String lockName, LockLostException end) {
        meters(lockName).expired();
    }

    @Override
    public void renewal(int holds, boolean succeeded) {
        (succeeded ? renewed : renewalFailed).increment(holds);
    }

    private LockMeters meters(String lockName) {
        if (allLocks != null) {
            return allLocks;
        }
        LockMeters meters = byName.get(lockName);
        if (meters == null) {
            meters = byName.computeIfAbsent(lockName, this::tagged);
            if (meters == null) {
                meters = byName.computeIfAbsent(OTHER_LOCKS, n -> lockMeters(n));
            }
        }
        return meters;
    }

    /** This name's own meters while fewer than the limit have them; null (and no entry) after that. */
    private LockMeters tagged(String lockName) {
        if (names.incrementAndGet() > maxLockNames) {
            names.decrementAndGet();
            return null;
        }
        return lockMeters(lockName);
    }

    private LockMeters lockMeters(String lockTag) {
        return new LockMeters(registry, tags.and(LOCK_TAG, lockTag));
    }

    @Override
    public String toString() {
        return "DlockMetrics" + tags.stream().map(Tag::toString).toList()
                + (maxLockNames == 0 ? "" : " with lock names (at most " + maxLockNames + ")");
    }

    /**
     * Options for {@link DlockMetrics}. Not thread-safe: configure it on one thread.
     */
    public static final class Builder {
        private final MeterRegistry registry;
        private Tags tags = Tags.empty();
        private int maxLockNames;

        private Builder(MeterRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
        }

        /**
         * Adds a tag to every meter, such as {@code client} with the client's name when several
         * clients record into one registry.
         *
         * @param key the tag key, neither {@value DlockMetrics#OUTCOME_TAG} nor {@value DlockMetrics#LOCK_TAG}
         * @param value the tag value
         * @return this builder
         * @throws NullPointerException if {@code key} or {@code value} is null
         * @throws IllegalArgumentException if {@code key} is one of the tags this class sets itself
         */
        public Builder tag(String key, String value) {
            return tags(Tags.of(checkKey(Objects.requireNonNull(key, "key")), Objects.requireNonNull(value, "value")));
        }

        /**
         * Adds tags to every meter; see {@link #tag(String, String)}.
         *
         * @param tags the tags
         * @return this builder
         * @throws NullPointerException if {@code tags} is null
         * @throws IllegalArgumentException if a key is one of the tags this class sets itself
         */
        public Builder tags(Iterable<Tag> tags) {
            Objects.requireNonNull(tags, "tags").forEach(tag -> checkKey(tag.getKey()));
            this.tags = this.tags.and(tags);
            return this;
        }

        private static String checkKey(String key) {
            if (key.equals(OUTCOME_TAG) || key.equals(LOCK_TAG)) {
                throw new IllegalArgumentException("tag '" + key + "' is set by DlockMetrics itself");
            }
            return key;
        }

        /**
         * Tags the meters of acquires and holds with the lock's name, as {@value DlockMetrics#LOCK_TAG} (off by
         * default). Each distinct tag value is a time series in the monitoring system, kept for as long
         * as the registry lives, so only the first {@code maxNames} names this instance sees get
         * their own; later names share the value {@value DlockMetrics#OTHER_LOCKS}, and the sums over the tag stay
         * right. Turn it on only for a small, fixed set of lock names; names made from ids (per order,
         * per user) would fill the limit and leave the rest in {@value DlockMetrics#OTHER_LOCKS}.
         *
         * @param maxNames how many distinct lock names get their own tag value, at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code maxNames} is less than 1
         */
        public Builder lockTag(int maxNames) {
            if (maxNames < 1) {
                throw new IllegalArgumentException("maxNames must be at least 1, was " + maxNames);
            }
            this.maxLockNames = maxNames;
            return this;
        }

        /**
         * Registers the meters that need no lock name and returns the listener.
         *
         * @return the listener, for {@code LockClient.Builder.listener}
         */
        public DlockMetrics build() {
            return new DlockMetrics(this);
        }
    }
}
