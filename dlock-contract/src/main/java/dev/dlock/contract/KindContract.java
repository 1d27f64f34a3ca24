package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockInfo;
import dev.dlock.LockLostException;
import dev.dlock.contract.LockKind.Subject;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One set of tests run over every {@link LockKind} (mutex, write lock, read lock, semaphore(1),
 * multi-lock): while the holder's lock is held every contender is kept out, for the time it asks to
 * wait; a release wakes a waiting contender at once with larger fencing tokens; threads of two clients
 * never overlap; the watchdog keeps a hold and reports a purged one lost; a fixed lease runs out; and
 * the input and lifecycle checks. What a kind cannot do is skipped with the kind's reason.
 */
public abstract class KindContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected KindContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perClass();

    /** Long, so that a contender let in well within it was woken, not let in by a timeout or a poll. */
    private static final Duration LEASE = Duration.ofSeconds(10);

    private LockClient a;
    private LockClient b;

    @BeforeEach
    void openClients() {
        a = builder(redis.uri()).leaseTime(LEASE).build();
        b = builder(redis.uri()).leaseTime(LEASE).build();
    }

    @AfterEach
    void closeClients() {
        a.close();
        b.close();
    }

    private static Duration scaled(long millis) {
        return Timing.scaled(Duration.ofMillis(millis));
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private static String name(LockKind kind, String test) {
        return kind.name().toLowerCase(Locale.ROOT) + "-" + test;
    }

    /** Fails unless every name {@code later} holds is one {@code earlier} held, with a larger token. */
    private static void assertTokensLarger(Lease later, Lease earlier) {
        Map<String, Long> before = earlier.fencingTokens();
        assertThat(later.fencingTokens())
                .isNotEmpty()
                .allSatisfy((lockName, token) -> assertThat(before)
                        .as("the contender's names are the holder's")
                        .containsKey(lockName)
                        .extractingByKey(lockName)
                        .satisfies(held ->
                                assertThat(token).as(lockName + "'s token").isGreaterThan(held)));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void whileHeld_everyContender_isRefusedAtOnce_andAfterItsWholeWait(LockKind kind) {
        String n = name(kind, "held");
        try (Lease held = kind.holder(a, n).acquire()) {
            for (Subject contender : kind.contenders(b, n)) {
                assertThat(contender.tryAcquire(Duration.ZERO))
                        .as(contender + ", no wait")
                        .isEmpty();
                long start = System.nanoTime();
                Optional<Lease> waited = contender.tryAcquire(Duration.ofMillis(300));
                long took = millisSince(start);
                assertThat(waited).as(contender + ", 300 ms").isEmpty();
                assertThat(took)
                        .as(contender + " waited its 300 ms")
                        .isBetween(300L, 300 + scaled(1000).toMillis());
            }
            assertThat(held.isValid()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void release_wakesAWaitingContenderWellWithinTheLease_withLargerTokensForEveryName(LockKind kind) throws Exception {
        String n = name(kind, "wake");
        for (Subject contender : kind.contenders(b, n)) {
            Lease held = kind.holder(a, n).acquire();
            CompletableFuture<Lease> waiting = contender.acquireAsync(scaled(30_000));
            Thread.sleep(200);
            assertThat(waiting).as(contender + " waits").isNotDone();
            held.release();
            long released = System.nanoTime();
            Lease got = waiting.get(scaled(5000).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(millisSince(released))
                    .as(contender + " woken, not let in by a poll or the lease's end")
                    .isLessThan(scaled(1000).toMillis());
            assertTokensLarger(got, held);
            got.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void info_showsTheKind_theHolder_andTheWaitersQueuedInRedis_inFifoOrder(LockKind kind) throws Exception {
        Assumptions.assumeTrue(
                kind != LockKind.MULTI_LOCK, "a multi-lock has no single LockInfo: each of its names has its own");
        String n = name(kind, "info");
        String expectedKind = kind == LockKind.MUTEX ? "mutex" : kind == LockKind.SEMAPHORE_1 ? "semaphore" : "rw";
        try (LockClient c = builder(redis.uri()).leaseTime(LEASE).build()) {
            Lease held = kind.holder(a, n).acquire();
            CompletableFuture<Lease> first = kind.contenders(b, n).get(0).acquireAsync(scaled(30_000));
            awaitQueued(kind, n, 1);
            CompletableFuture<Lease> second = kind.contenders(c, n).get(0).acquireAsync(scaled(30_000));
            awaitQueued(kind, n, 2);

            LockInfo info = kind.holder(a, n).info();
            assertThat(info.kind()).isEqualTo(expectedKind);
            assertThat(info.holderId()).hasValueSatisfying(id -> assertThat(id).startsWith(a.clientId() + ":"));
            assertThat(info.fencingToken()).isEqualTo(held.fencingToken());
            assertThat(info.remaining()).isPositive().isLessThanOrEqualTo(LEASE);
            assertThat(info.holders()).singleElement().satisfies(h -> {
                assertThat(h.ownerId()).isEqualTo(info.holderId().orElseThrow());
                assertThat(h.fencingToken()).isEqualTo(held.fencingToken());
            });
            assertThat(info.waiters()).isEqualTo(2);
            assertThat(info.queue())
                    .as("first queued, first listed")
                    .satisfiesExactly(
                            w -> assertThat(w.ownerId()).startsWith(b.clientId() + ":"),
                            w -> assertThat(w.ownerId()).startsWith(c.clientId() + ":"));
            assertThat(info.queue()).allSatisfy(w -> assertThat(w.weight()).isPositive());

            held.release();
            first.get(scaled(5000).toMillis(), TimeUnit.MILLISECONDS).release();
            second.get(scaled(5000).toMillis(), TimeUnit.MILLISECONDS).release();
            LockInfo free = kind.holder(a, n).info();
            assertThat(free.holderId()).isEmpty();
            assertThat(free.holders()).isEmpty();
            assertThat(free.waiters()).isZero();
            assertThat(free.queue()).isEmpty();
            assertThat(free.fencingToken()).as("the last token issued").isGreaterThan(held.fencingToken());
        }
    }

    /** Waits until {@code waiters} acquires are queued in Redis for {@code n} (a mutex's queue or a shared lock's). */
    private static void awaitQueued(LockKind kind, String n, long waiters) throws InterruptedException {
        if (kind == LockKind.MUTEX) {
            WaitQueue.awaitSize(redis, n, waiters);
        } else {
            WaitQueue.awaitShared(redis, n, waiters);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void theHoldersLockOnAnotherClient_isRefused_butAReaderIsAdmittedBesideAReader(LockKind kind) {
        String n = name(kind, "same");
        try (Lease held = kind.holder(a, n).acquire()) {
            Optional<Lease> second = kind.holder(b, n).tryAcquire(Duration.ZERO);
            try {
                if (kind.holderIsShared()) {
                    assertThat(second).as("readers overlap").isPresent();
                    assertThat(held.isValid() && second.orElseThrow().isValid()).isTrue();
                } else {
                    assertThat(second).as("a second holder").isEmpty();
                }
            } finally {
                second.ifPresent(Lease::release);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void threadsOfTwoClients_holderAndContendersAlike_neverOverlap(LockKind kind) throws Exception {
        String n = name(kind, "mx");
        AtomicInteger exclusiveInside = new AtomicInteger();
        AtomicInteger sharedInside = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        Workers.run("kind-mx", 8, Duration.ofSeconds(120), worker -> {
            LockClient client = worker % 2 == 0 ? a : b;
            List<Subject> roles = new ArrayList<>();
            roles.add(kind.holder(client, n));
            roles.addAll(kind.contenders(client, n));
            Subject subject = roles.get((worker / 2) % roles.size());
            for (int round = 0; round < 15; round++) {
                try (Lease lease = subject.acquire()) {
                    // each side counts itself in first, then looks at the other: of two that overlap,
                    // the later one to count itself in sees the other
                    if (subject.shared()) {
                        sharedInside.incrementAndGet();
                        if (exclusiveInside.get() != 0) {
                            violations.incrementAndGet();
                        }
                    } else if (exclusiveInside.incrementAndGet() != 1 || sharedInside.get() != 0) {
                        violations.incrementAndGet();
                    }
                    entries.incrementAndGet();
                    Thread.sleep(1);
                    assertThat(lease.isValid()).isTrue();
                    (subject.shared() ? sharedInside : exclusiveInside).decrementAndGet();
                }
            }
        });
        assertThat(violations).as("overlaps").hasValue(0);
        assertThat(entries).hasValue(8 * 15);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void theWatchdog_keepsAHoldPastThreeLeaseTimes_withNoLoss(LockKind kind) throws Exception {
        String n = name(kind, "wd");
        // 1 s, renewed every 333 ms: only a host too loaded to answer a renewal within 667 ms loses the
        // hold, as it must (600 ms leases were lost at a load of 12-19 on 2 cores); -Ddlock.test.timing
        // scales the lease further
        long leaseMillis = scaled(1000).toMillis();
        try (LockClient shortLeases =
                builder(redis.uri()).leaseTime(Duration.ofMillis(leaseMillis)).build()) {
            Lease lease = kind.holder(shortLeases, n).acquire();
            CompletableFuture<LockLostException> lost = new CompletableFuture<>();
            lease.onLost(lost::complete);
            Thread.sleep(3 * leaseMillis + 300);
            assertThat(lost).as(() -> "no loss reported: " + lost.getNow(null)).isNotDone();
            assertThat(lease.isValid()).isTrue();
            for (Subject contender : kind.contenders(b, n)) {
                assertThat(contender.tryAcquire(Duration.ZERO))
                        .as(contender.label())
                        .isEmpty();
            }
            lease.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void aFixedLease_runsOut_andTheContenderThenGetsIn(LockKind kind) {
        String n = name(kind, "fixed");
        long fixedMillis = 500;
        long start = System.nanoTime();
        Lease fixed = kind.holder(a, n)
                .tryAcquire(Duration.ZERO, Duration.ofMillis(fixedMillis))
                .orElseThrow();
        Subject contender = kind.contenders(b, n).get(0);
        Lease next = contender.tryAcquire(scaled(5000)).orElseThrow();
        long took = millisSince(start);
        assertThat(took)
                .as("in when the fixed lease ran out")
                .isBetween(fixedMillis - 100, fixedMillis + scaled(1500).toMillis());
        assertThat(fixed.isValid()).isFalse();
        assertTokensLarger(next, fixed);
        next.release();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void anOperatorsPurge_isReportedLostAtTheNextRenewalRound(LockKind kind) throws Exception {
        String n = name(kind, "purged");
        long leaseMillis = 1500; // renewal every 500 ms
        try (LockClient mine =
                builder(redis.uri()).leaseTime(Duration.ofMillis(leaseMillis)).build()) {
            Lease lease = kind.holder(mine, n).acquire();
            CompletableFuture<LockLostException> heard = new CompletableFuture<>();
            lease.onLost(heard::complete);
            assertThat(mine.admin().purge(kind.purgedName(n)))
                    .as("keys deleted")
                    .isPositive();
            long purged = System.nanoTime();
            heard.get(scaled(5000).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(millisSince(purged))
                    .as("at the next renewal round")
                    .isLessThan(leaseMillis / 3 + scaled(700).toMillis());
            assertThat(lease.isValid()).isFalse();
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void acquireAsync_completesWithAValidLease(LockKind kind) throws Exception {
        String n = name(kind, "async");
        Lease lease =
                kind.holder(a, n).acquireAsync(scaled(5000)).get(scaled(5000).toMillis(), TimeUnit.MILLISECONDS);
        assertThat(lease.isValid()).isTrue();
        assertThat(lease.fencingTokens()).isNotEmpty();
        assertThat(kind.contenders(b, n).get(0).tryAcquire(Duration.ZERO)).isEmpty();
        lease.release();
        assertThat(lease.isValid()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void aClosedClient_throwsIllegalStateException_andDoesNoIo(LockKind kind) {
        String n = name(kind, "closed");
        LockClient closing = connect(redis.uri());
        Subject before = kind.holder(closing, n);
        closing.close();
        redis.commandOnMasters("CONFIG", "RESETSTAT");
        assertThatThrownBy(() -> kind.holder(closing, n)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(before::acquire).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> before.tryAcquire(Duration.ZERO)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> before.acquireAsync(Duration.ZERO)).isInstanceOf(IllegalStateException.class);
        assertThat(ScriptCalls.of(redis)).as("scripts run").isZero();
        assertThat(redis.commandOnMasters("DBSIZE")).as("keys written").containsOnly(0L);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void aNullName_throwsNullPointerExceptionNamingTheArgument(LockKind kind) {
        assertThatThrownBy(() -> kind.holder(a, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage(kind.nullNameArgument());
        assertThat(redis.commandOnMasters("DBSIZE")).as("keys written").containsOnly(0L);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void lockAndUnlock_areReentrant_andOnlyTheLastUnlockLetsTheContenderIn(LockKind kind) {
        Assumptions.assumeTrue(
                kind.notALock().isEmpty(), () -> kind + ": " + kind.notALock().orElseThrow());
        String n = name(kind, "reentry");
        DistributedLock lock = kind.holder(a, n).asLock().orElseThrow();
        Subject contender = kind.contenders(b, n).get(0);
        lock.lock();
        lock.lock();
        assertThat(lock.getHoldCount()).isEqualTo(2);
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
        assertThat(contender.tryAcquire(Duration.ZERO)).as("one unlock of two").isEmpty();
        lock.unlock();
        assertThat(lock.getHoldCount()).isZero();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
        Lease in = contender.tryAcquire(Duration.ZERO).orElseThrow();
        in.release();
    }
}
