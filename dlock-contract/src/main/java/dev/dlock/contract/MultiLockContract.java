package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The multi-lock ({@code client.multiLock(names...)}, docs/lock-family.md) against real servers and
 * processes: it excludes a plain lock on each name and the reverse; multi-locks over overlapping names
 * given in any order never deadlock (a hang fails the test at its timeout) and never overlap on a name;
 * a timed-out, interrupted or cancelled acquire holds none of the names; tokens increase per name; the
 * loss of one name's hold is the loss of the whole lease, reported once; a release releases every name.
 */
public abstract class MultiLockContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected MultiLockContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perClass();

    private static final List<String> NAMES = List.of("m0", "m1", "m2", "m3", "m4");

    private static Duration scaled(long millis) {
        return Timing.scaled(Duration.ofMillis(millis));
    }

    private Object command(String... args) {
        return redis.command(args);
    }

    private boolean held(String name) {
        return command("EXISTS", "dlock:{" + name + "}").equals(1L);
    }

    /** Polls until {@code name}'s queue has {@code n} entries, or 5 s (scaled) passed. */
    private void awaitQueued(String name, long n) throws InterruptedException {
        long by = System.nanoTime() + scaled(5000).toNanos();
        while (!command("ZCARD", "dlock:{" + name + "}:q").equals(n) && System.nanoTime() < by) {
            Thread.sleep(10);
        }
        assertThat(command("ZCARD", "dlock:{" + name + "}:q"))
                .as(name + " queued")
                .isEqualTo(n);
    }

    @Test
    void aMultiLock_excludesAPlainLockOnEachOfItsNames_andThePlainLockExcludesTheMultiLock() {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Lease multi = a.multiLock("x1", "x2", "x3").acquire();
            for (String name : List.of("x1", "x2", "x3")) {
                assertThat(held(name)).as(name + " held in Redis").isTrue();
                assertThat(b.lock(name).tryAcquire(Duration.ZERO))
                        .as("another client on " + name)
                        .isEmpty();
                assertThat(a.lock(name).tryAcquire(Duration.ZERO))
                        .as("the same client on " + name)
                        .isEmpty();
            }
            assertThat(b.multiLock("x3", "x9").tryAcquire(Duration.ZERO)).isEmpty();
            assertThat(held("x9")).as("the overlapping multi-lock took nothing").isFalse();
            multi.release();
            assertThat(held("x1") || held("x2") || held("x3"))
                    .as("release releases every name")
                    .isFalse();

            Lease plain = b.lock("x2").acquire();
            assertThat(a.multiLock("x1", "x2", "x3").tryAcquire(Duration.ofMillis(200)))
                    .isEmpty();
            assertThat(held("x1") || held("x3"))
                    .as("the timed-out multi-lock holds none")
                    .isFalse();
            assertThat(a.multiLock("x1", "x2").isLocked()).isTrue();
            plain.release();
            assertThat(a.multiLock("x1", "x2").isLocked()).isFalse();
        }
    }

    @Test
    void twoMultiLocksInOppositeOrders_fourThreadsOfTwoClients_neverDeadlockNorOverlap() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Map<String, AtomicInteger> inside = Map.of("p", new AtomicInteger(), "q", new AtomicInteger());
            AtomicInteger overlaps = new AtomicInteger();
            redis.commandOnMasters("CONFIG", "RESETSTAT");
            Workers.run("opposite", 4, Duration.ofSeconds(60), worker -> {
                String[] order = worker % 2 == 0 ? new String[] {"p", "q"} : new String[] {"q", "p"};
                DistributedLock multi = (worker < 2 ? a : b).multiLock(order);
                for (int i = 0; i < 40; i++) {
                    try (Lease lease = multi.acquire()) {
                        for (String name : order) {
                            if (inside.get(name).incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                        }
                        Thread.yield();
                        assertThat(lease.isValid()).isTrue();
                        for (String name : order) {
                            inside.get(name).decrementAndGet();
                        }
                    }
                }
            });
            long calls = ScriptCalls.of(redis);
            System.out.printf(
                    "multi-lock over 2 names, opposite orders, 4 threads of 2 clients: %d script calls for 160"
                            + " holds, %.2f each incl. release%n",
                    calls, calls / 160.0);
            assertThat(overlaps.get()).as("overlaps").isZero();
            assertThat(held("p") || held("q")).isFalse();
        }
    }

    @Test
    void overlappingMultiLocksInRandomOrders_eightThreadsOfFourClients_neverDeadlockNorOverlap_andTokensIncrease()
            throws Exception {
        List<LockClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                clients.add(connect(redis.uri()));
            }
            Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();
            Map<String, AtomicLong> lastToken = new ConcurrentHashMap<>();
            NAMES.forEach(n -> {
                inside.put(n, new AtomicInteger());
                lastToken.put(n, new AtomicLong());
            });
            AtomicInteger overlaps = new AtomicInteger();
            AtomicInteger regressions = new AtomicInteger();
            AtomicInteger holds = new AtomicInteger();
            Workers.run("random", 8, Duration.ofSeconds(90), worker -> {
                LockClient client = clients.get(worker % 4);
                Random random = new Random(worker);
                for (int round = 0; round < 25; round++) {
                    List<String> chosen = new ArrayList<>(NAMES);
                    Collections.shuffle(chosen, random);
                    chosen = chosen.subList(0, 1 + random.nextInt(NAMES.size()));
                    String[] names = chosen.toArray(String[]::new);
                    int style = (worker + round) % 4;
                    DistributedLock lock = names.length == 1 ? client.lock(names[0]) : client.multiLock(names);
                    Lease lease = null;
                    if (style == 0) {
                        lock.lock(); // thread-owned
                    } else if (style == 1) {
                        lease = lock.acquireAsync(scaled(60_000)).get();
                        assertThat(lease).as("acquired within the wait").isNotNull();
                    } else {
                        lease = lock.acquire();
                    }
                    try {
                        Map<String, Long> tokens = lease == null ? lock.fencingTokens() : lease.fencingTokens();
                        assertThat(tokens.keySet()).containsExactlyInAnyOrderElementsOf(chosen);
                        for (Map.Entry<String, Long> e : tokens.entrySet()) {
                            if (inside.get(e.getKey()).incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            // exclusive per name: the holders of a name follow each other in token order
                            if (lastToken.get(e.getKey()).getAndSet(e.getValue()) >= e.getValue()) {
                                regressions.incrementAndGet();
                            }
                        }
                        holds.incrementAndGet();
                        Thread.sleep(1);
                        for (String name : tokens.keySet()) {
                            inside.get(name).decrementAndGet();
                        }
                    } finally {
                        if (lease == null) {
                            lock.unlock();
                        } else {
                            lease.release();
                        }
                    }
                }
            });
            assertThat(holds.get()).isEqualTo(8 * 25);
            assertThat(overlaps.get()).as("overlaps on a name").isZero();
            assertThat(regressions.get()).as("tokens not increasing on a name").isZero();
            assertThat(NAMES.stream().anyMatch(this::held))
                    .as("nothing left held")
                    .isFalse();
        } finally {
            clients.forEach(LockClient::close);
        }
    }

    @Test
    void overlappingMultiLocksInRandomOrders_sixProcesses_neverDeadlockNorOverlap() {
        String transport = transport().getClass().getName();
        HolderProcesses.contest(redis, MultiHolderMain.class, 6, Duration.ofSeconds(90), i ->
                new String[] {redis.uri(), String.join(",", NAMES), "15", Integer.toString(i), transport});
        for (String name : NAMES) {
            assertThat(command("GET", SemaphoreHolderMain.peak(name)))
                    .as("peak holders of " + name)
                    .isEqualTo("1");
            assertThat(command("GET", SemaphoreHolderMain.counter(name))).isEqualTo("0");
        }
    }

    @Test
    void aTimedOutInterruptedOrCancelledMultiAcquire_holdsNoneOfTheNamesAfterwards() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Lease blocker = b.lock("t3").acquire();
            DistributedLock multi = a.multiLock("t3", "t1", "t2");
            assertThat(multi.tryAcquire(Duration.ofMillis(300))).isEmpty();
            assertThat(held("t1") || held("t2")).as("timed out: none held").isFalse();
            assertThat(command("ZCARD", "dlock:{t3}:q")).as("left the queue").isEqualTo(0L);

            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    multi.lockInterruptibly();
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            waiter.start();
            awaitQueued("t3", 1);
            assertThat(held("t1") && held("t2"))
                    .as("the first names taken while waiting")
                    .isTrue();
            waiter.interrupt();
            waiter.join(scaled(5000).toMillis());
            assertThat(waiter.isAlive()).isFalse();
            assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
            assertThat(held("t1") || held("t2")).as("interrupted: none held").isFalse();

            CompletableFuture<Lease> async = multi.acquireAsync(scaled(30_000));
            awaitQueued("t3", 1);
            async.cancel(false);
            long by = System.nanoTime() + scaled(3000).toNanos();
            while ((held("t1") || held("t2")) && System.nanoTime() < by) {
                Thread.sleep(10);
            }
            assertThat(held("t1") || held("t2")).as("cancelled: none held").isFalse();
            awaitQueued("t3", 0);

            blocker.release();
            Lease all = multi.tryAcquire(Duration.ZERO).orElseThrow();
            all.release();
        }
    }

    @Test
    void uncontended_costsOneScriptCallPerNameToAcquire_andOnePerNameToRelease() {
        // counted where the client sends them, by script, not on the server: there a call of an earlier test's client,
        // late on a busy host, counted too; a lease so long that no watchdog renewal can fall among the calls counted
        CountingTransports counting = new CountingTransports(transport());
        try (LockClient client = LockClient.builder()
                .redisUri(redis.uri())
                .transport(counting)
                .leaseTime(Duration.ofMinutes(10))
                .build()) {
            DistributedLock multi = client.multiLock("c3", "c1", "c2");
            multi.acquire().release(); // scripts loaded
            counting.reset();
            for (int i = 0; i < 10; i++) {
                multi.acquire().release();
            }
            Map<String, Long> calls = new TreeMap<>(); // a script's sharded variant (SPUBLISH) counts as itself
            counting.calls().forEach((name, n) -> calls.merge(name.replace("-sharded", ""), n, Long::sum));
            System.out.printf("multi-lock over 3 names, uncontended, 10 acquires and releases: %s%n", calls);
            assertThat(calls.getOrDefault("acquire", 0L))
                    .as("acquires: %s", calls)
                    .isEqualTo(10 * 3);
            assertThat(calls.getOrDefault("release", 0L))
                    .as("releases: %s", calls)
                    .isEqualTo(10 * 3);
            // a part taken more than MultiLock.CONFIRM_AFTER_MILLIS before the last is confirmed by a renewal before
            // the acquire returns: never on a quiet host, sometimes on a busy one (61 calls of 60 seen); at most the
            // two earlier parts of each acquire, and nothing else
            assertThat(calls.getOrDefault("renew", 0L))
                    .as("confirmations: %s", calls)
                    .isLessThanOrEqualTo(10 * 2);
            assertThat(calls.keySet()).as("scripts called").isSubsetOf("acquire", "release", "renew");
        }
    }

    @Test
    void aFixedLeaseMultiAcquire_returnsEveryNameValidForAtLeastHalfItsLease() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            // f2 is free only when b's fixed lease runs out, after f1's lease has less than half left
            b.lock("f2").tryAcquire(Duration.ZERO, Duration.ofMillis(1000)).orElseThrow();
            Lease extended = a.multiLock("f1", "f2")
                    .tryAcquire(scaled(5000), Duration.ofMillis(1500))
                    .orElseThrow();
            assertThat(extended.remaining()).as("f1 extended").isGreaterThanOrEqualTo(Duration.ofMillis(700));
            Thread.sleep(500);
            assertThat(held("f1") && held("f2")).isTrue();
            extended.release();

            // f1's lease runs out entirely while f2 is waited for: both are taken again
            b.lock("f2").tryAcquire(Duration.ZERO, Duration.ofMillis(1000)).orElseThrow();
            Lease retaken = a.multiLock("f1", "f2")
                    .tryAcquire(scaled(5000), Duration.ofMillis(400))
                    .orElseThrow();
            assertThat(retaken.remaining()).isGreaterThanOrEqualTo(Duration.ofMillis(190));
            assertThat(held("f1") && held("f2")).isTrue();
            retaken.release();
        }
    }

    @Test
    void theLeaseGivesEachNamesToken_inNameOrder_andTokensIncreasePerName() {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Lease plain = b.lock("k1").acquire();
            long k1 = plain.fencingToken();
            plain.release();
            Lease first = a.multiLock("k2", "k1", "k2").acquire(); // duplicates are dropped
            Map<String, Long> tokens = first.fencingTokens();
            assertThat(tokens.keySet()).containsExactly("k1", "k2");
            assertThat(tokens.get("k1")).isGreaterThan(k1);
            assertThat(first.fencingToken()).as("the first name's").isEqualTo(tokens.get("k1"));
            assertThat(first.lockName()).isEqualTo("[k1, k2]");
            first.release();

            DistributedLock multi = b.multiLock("k1", "k2");
            multi.lock();
            Map<String, Long> next = multi.fencingTokens();
            assertThat(next.get("k1")).isGreaterThan(tokens.get("k1"));
            assertThat(next.get("k2")).isGreaterThan(tokens.get("k2"));
            assertThat(multi.fencingToken()).isEqualTo(next.get("k1"));
            multi.unlock();
            assertThat(b.lock("k2").acquire().fencingToken()).isGreaterThan(next.get("k2"));
        }
    }

    @Test
    void theWatchdogKeepsEveryName_andTheLossOfOneIsTheLossOfTheWholeLease_reportedOnce() throws Exception {
        long leaseMillis = 1500; // renewal every 500 ms
        try (LockClient mine = builder(redis.uri())
                        .leaseTime(Duration.ofMillis(leaseMillis))
                        .build();
                LockClient other = connect(redis.uri())) {
            Lease lease = mine.multiLock("w1", "w2", "w3").acquire();
            AtomicInteger heard = new AtomicInteger();
            CompletableFuture<LockLostException> first = new CompletableFuture<>();
            lease.onLost(loss -> {
                heard.incrementAndGet();
                first.complete(loss);
            });
            CompletableFuture<LockLostException> whenLost = lease.whenLost();
            Thread.sleep(4 * leaseMillis);
            assertThat(lease.isValid()).isTrue();
            for (String name : List.of("w1", "w2", "w3")) {
                assertThat(other.lock(name).tryAcquire(Duration.ZERO)).as(name).isEmpty();
            }

            command("DEL", "dlock:{w2}"); // an operator deletes one name's key
            LockLostException loss = first.get(scaled(3000).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(loss.lockName()).isEqualTo("w2");
            assertThat(loss.fencingToken()).isEqualTo(lease.fencingTokens().get("w2"));
            assertThat(whenLost.get(scaled(1000).toMillis(), TimeUnit.MILLISECONDS))
                    .isSameAs(loss);
            assertThat(lease.isValid()).isFalse();
            assertThat(lease.remaining()).isZero();
            assertThat(held("w1") || held("w3")).as("the other names released").isFalse();
            Thread.sleep(leaseMillis); // more rounds: nothing is reported twice
            assertThat(heard.get()).isEqualTo(1);
            assertThatThrownBy(lease::release).isSameAs(loss);
            lease.release(); // reported once
            Optional<Lease> after = other.multiLock("w1", "w2", "w3").tryAcquire(Duration.ZERO);
            assertThat(after).isPresent();
            after.get().release();
        }
    }

    @Test
    void aReleaseThatFindsOneNameLost_releasesTheOthers_thenReportsTheLoss() {
        try (LockClient client = connect(redis.uri())) {
            Lease lease = client.multiLock("r1", "r2", "r3").acquire();
            command("DEL", "dlock:{r2}");
            assertThatThrownBy(lease::release)
                    .isInstanceOf(LockLostException.class)
                    .satisfies(
                            e -> assertThat(((LockLostException) e).lockName()).isEqualTo("r2"));
            assertThat(held("r1") || held("r3")).as("the others released").isFalse();
            lease.release(); // reported once
            assertThat(lease.isValid()).isFalse();
        }
    }

    @Test
    void threadOwnedHolds_areReentrantPerThreadAndSetOfNames_andTheLastUnlockReleasesEveryName() throws Exception {
        try (LockClient client = connect(redis.uri())) {
            DistributedLock multi = client.multiLock("e1", "e2");
            multi.lock();
            assertThat(multi.tryLock(1, TimeUnit.SECONDS)).isTrue();
            DistributedLock sameNames = client.multiLock("e2", "e1", "e1");
            assertThat(sameNames.getHoldCount()).isEqualTo(2);
            assertThat(sameNames.isHeldByCurrentThread()).isTrue();
            AtomicReference<Boolean> otherThread = new AtomicReference<>();
            Thread t = new Thread(() -> otherThread.set(multi.tryLock()));
            t.start();
            t.join(scaled(5000).toMillis());
            assertThat(otherThread.get()).as("another thread of the client").isFalse();
            sameNames.unlock();
            assertThat(held("e1") && held("e2")).isTrue();
            multi.unlock();
            assertThat(held("e1") || held("e2")).isFalse();
            assertThatThrownBy(multi::unlock).isInstanceOf(IllegalMonitorStateException.class);
        }
    }

    @Test
    void badNames_areTypedErrorsNamingTheArgument_beforeAnyIo() {
        try (LockClient client = connect(redis.uri())) {
            assertThatThrownBy(() -> client.multiLock((String[]) null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("names");
            assertThatThrownBy(() -> client.multiLock())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("names");
            assertThatThrownBy(() -> client.multiLock("a", null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("names[1]");
            assertThatThrownBy(() -> client.multiLock("a", "b", " "))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("names[2]");
            assertThatThrownBy(() -> client.multiLock("a", "x".repeat(LockClient.Builder.MAX_NAME_LENGTH + 1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("names[1]");
            DistributedLock multi = client.multiLock("b", "a", "b");
            assertThat(multi.name()).isEqualTo("[a, b]");
            assertThatThrownBy(() -> multi.tryAcquire(Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("wait");
            assertThatThrownBy(multi::info).isInstanceOf(UnsupportedOperationException.class);
            assertThat(held("a") || held("b")).isFalse();
        }
        LockClient closed = connect(redis.uri());
        closed.close();
        assertThatThrownBy(() -> closed.multiLock("a")).isInstanceOf(IllegalStateException.class);
    }
}
