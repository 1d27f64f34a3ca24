package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockListener;
import dev.dlock.LockLostException;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A multi-lock never returns while one of its names is lost (issue 24, defect 1). A takes {@code ma} and
 * waits for {@code mb}, which B holds; {@code ma}'s key is deleted (standing for a failover without
 * acknowledgements, an eviction, or a pause longer than the lease), C takes {@code ma}, and A's watchdog
 * finds {@code ma} lost; then B releases {@code mb}. A's acquire must not return (neither a lease already
 * invalid nor a {@code lock()} that holds nothing) while C holds {@code ma}; once C releases it, A
 * completes holding both names, with a newer token for {@code ma}. Blocking acquire, {@code lock()} and
 * {@code acquireAsync} alike.
 */
public abstract class MultiLostPartContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected MultiLostPartContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perClass();

    private static final long LEASE_MS = 1_500; // the watchdog renews every 500 ms

    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final CompletableFuture<LockLostException> aLost = new CompletableFuture<>();
    private LockClient a;
    private LockClient b;
    private LockClient c;

    @BeforeEach
    void openClients() {
        a = builder(redis.uri())
                .leaseTime(Duration.ofMillis(LEASE_MS))
                .listener(new LockListener() {
                    @Override
                    public void holdLost(String lockName, LockLostException loss) {
                        aLost.complete(loss);
                    }
                })
                .build();
        b = builder(redis.uri()).leaseTime(Duration.ofMillis(LEASE_MS)).build();
        c = builder(redis.uri()).leaseTime(Duration.ofMillis(LEASE_MS)).build();
    }

    @AfterEach
    void closeClients() throws InterruptedException {
        callers.shutdownNow();
        a.close();
        b.close();
        c.close();
        assertThat(callers.awaitTermination(10, TimeUnit.SECONDS))
                .as("callers ended")
                .isTrue();
    }

    @Test
    void acquire_aPartLostWhileWaitingForAnother_waitsUntilItCanHoldEveryName() throws Exception {
        String[] names = names("acq");
        check(names, () -> a.multiLock(names).tryAcquire(Duration.ofSeconds(30)).orElse(null));
    }

    @Test
    void lock_aPartLostWhileWaitingForAnother_returnsOnlyHoldingEveryName() throws Exception {
        String[] names = names("lock");
        check(names, () -> {
            DistributedLock multi = a.multiLock(names);
            multi.lock();
            try {
                assertThat(multi.isHeldByCurrentThread())
                        .as("lock() returned holding every name")
                        .isTrue();
                return new HeldByThread(multi.fencingTokens().get(names[0]));
            } finally {
                multi.unlock();
            }
        });
    }

    @Test
    void acquireAsync_aPartLostWhileWaitingForAnother_completesOnlyHoldingEveryName() throws Exception {
        String[] names = names("async");
        check(
                names,
                () -> a.multiLock(names).acquireAsync(Duration.ofSeconds(30)).get(40, TimeUnit.SECONDS));
    }

    /**
     * The watchdog has not seen the loss yet (a 30 s lease renews every 10 s) when the last name comes: a
     * part taken before a wait for a later name is confirmed in Redis before the acquire returns.
     */
    @Test
    void acquire_aPartTakenByAnotherBeforeTheWatchdogSawIt_isFoundByTheConfirmation() throws Exception {
        String[] names = names("confirm");
        String ma = names[0];
        String mb = names[1];
        try (LockClient slow =
                builder(redis.uri()).leaseTime(Duration.ofSeconds(30)).build()) {
            Lease bLease = b.lock(mb).acquire();
            CompletableFuture<Optional<Lease>> aResult = CompletableFuture.supplyAsync(
                    () -> slow.multiLock(names).tryAcquire(Duration.ofSeconds(30)), callers);
            awaitQueued(mb);
            Thread.sleep(200); // a wait: ma was taken longer than MultiLock.CONFIRM_AFTER_MILLIS (50 ms) before mb
            redis.command("DEL", "dlock:{" + ma + "}");
            Lease cLease = c.lock(ma).acquire();
            bLease.release(); // mb goes to A, whose watchdog still believes in ma

            Thread.sleep(scaled(1_000));
            assertThat(aResult)
                    .as("A's acquire returned while C held %s: %s", ma, aResult.isDone() ? aResult.getNow(null) : null)
                    .isNotDone();
            long cToken = cLease.fencingToken();
            cLease.release();
            Lease lease = aResult.get(scaled(10_000), TimeUnit.MILLISECONDS).orElseThrow();
            assertThat(lease.isValid()).isTrue();
            assertThat(lease.fencingTokens().get(ma)).as("A's token for ma").isGreaterThan(cToken);
            lease.release();
        }
    }

    private static String[] names(String test) {
        String run = test + "-" + System.nanoTime();
        return new String[] {"ma-" + run, "mb-" + run}; // sorted: ma first
    }

    /** What A's acquire returned: a lease, or for lock() the first name's token read while it held. */
    private interface Acquire {
        Object run() throws Exception;
    }

    private record HeldByThread(long firstToken) {}

    private void check(String[] names, Acquire acquire) throws Exception {
        String ma = names[0];
        String mb = names[1];
        Lease bLease = b.lock(mb).acquire();
        CompletableFuture<Object> aResult = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return acquire.run();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                callers);
        awaitQueued(mb);
        assertThat(redis.command("EXISTS", "dlock:{" + ma + "}"))
                .as("A holds ma")
                .isEqualTo(1L);

        redis.command("DEL", "dlock:{" + ma + "}");
        Lease cLease = c.lock(ma).acquire();
        LockLostException loss = aLost.get(scaled(5_000), TimeUnit.MILLISECONDS);
        assertThat(loss.lockName()).as("A's watchdog found ma lost").isEqualTo(ma);
        bLease.release(); // mb goes to A

        Thread.sleep(scaled(2_000));
        assertThat(aResult)
                .as("A's acquire returned while C held %s: %s", ma, aResult.isDone() ? aResult.getNow(null) : null)
                .isNotDone();
        assertThat(cLease.isValid()).isTrue();
        long cToken = cLease.fencingToken();
        cLease.release();

        Object result = aResult.get(scaled(10_000), TimeUnit.MILLISECONDS);
        assertThat(result).as("A completes once C released %s", ma).isNotNull();
        if (result instanceof Lease lease) {
            assertThat(lease.isValid()).as("A's lease valid").isTrue();
            assertThat(lease.fencingTokens().get(ma)).as("A's token for ma").isGreaterThan(cToken);
            assertThat(c.lock(ma).tryAcquire(Duration.ZERO)).as("ma held by A").isEmpty();
            assertThat(c.lock(mb).tryAcquire(Duration.ZERO)).as("mb held by A").isEmpty();
            lease.release();
        } else {
            assertThat(((HeldByThread) result).firstToken())
                    .as("A's token for ma")
                    .isGreaterThan(cToken);
        }
        Optional<Lease> after = c.multiLock(names).tryAcquire(Duration.ZERO);
        assertThat(after).as("both free after A released").isPresent();
        after.get().release();
    }

    private static long scaled(long millis) {
        return Timing.scaled(Duration.ofMillis(millis)).toMillis();
    }

    private static void awaitQueued(String name) throws InterruptedException {
        long by = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(scaled(5_000));
        while (!redis.command("ZCARD", "dlock:{" + name + "}:q").equals(1L)) {
            assertThat(System.nanoTime() - by)
                    .as("A queued for %s in time", name)
                    .isNegative();
            Thread.sleep(10);
        }
    }
}
