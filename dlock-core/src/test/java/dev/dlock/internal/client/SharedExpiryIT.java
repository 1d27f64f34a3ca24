package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedSemaphore;
import dev.dlock.LockInfo;
import dev.dlock.LockServerException;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.script.SemaphoreKeys;
import dev.dlock.internal.testing.ScriptCommand;
import dev.dlock.internal.testing.SocketTransport;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.testkit.RedisErrorReply;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How long the shared model's keys live (issue 24, defects 4 and 5; docs/lock-family.md, "Keys"): the
 * holders' hash never expires before the longest lease in it, whichever script writes it last, and the
 * record (kind and count) lives as long as any holder or waiter does, so a count set by {@code
 * setPermits} is never silently replaced by the one in code. Days cannot pass in a test: each test reads
 * the expiry a script left, or puts a key's expiry where days of the scripts' own writes would have left
 * it (PEXPIRE to what remains of it) and shows what happens then. A real server; scripts are run as the
 * client runs them, the watchdog's renewals included.
 */
final class SharedExpiryIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final long DAY_MS = Duration.ofDays(1).toMillis();
    private static final long IDLE_MS = 7 * DAY_MS; // FENCE_IDLE_MS: how long an idle name's keys live
    private static final long LONG_MS = 30 * DAY_MS; // a fixed lease longer than that
    private static final long SHORT_MS = 30_000;
    private static final long SLACK_MS = 60_000; // what the calls of a test may take, many times over
    /**
     * The key's expiry counts from the script's start, a holder's from its TIME call: the key may expire
     * up to a millisecond before the longest lease in it, which no client's validity (counted from before
     * its request was sent) comes near.
     */
    private static final long CLOCK_MS = 5;

    private static final long LEASE_MS = 2_000; // the client's watchdog lease: renewed every 666 ms

    private Transport socket;
    private RedisLockClient client;

    @BeforeEach
    void connect() {
        socket = new SocketTransport.Factory()
                .connect(TransportConfig.of(redis.server().uri(), Duration.ofSeconds(5), "shared-expiry"));
        client = RedisLockClient.on(socket, LEASE_MS, System::nanoTime, Runnable::run);
    }

    @AfterEach
    void close() {
        client.close();
        socket.close();
    }

    // ---- defect 4: the holders' hash is never shortened ------------------------------------------

    @Test
    void aShortReadHold_doesNotShortenTheHoldersKey_belowAFixedReadLease() {
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "rw-long");
        assertThat(rw(keys, "c1:lease-1", LONG_MS, "r")).as("30-day read hold").isPositive();
        assertThat(rw(keys, "c2:lease-1", SHORT_MS, "r")).as("30 s read hold").isPositive();

        assertThat(pttl(keys.holds()))
                .as("the holders' key after a 30 s read hold beside a 30-day one")
                .isGreaterThanOrEqualTo(LONG_MS - SLACK_MS);
    }

    @Test
    void aWriter_isRefused_whileAFixedReadLeaseRuns_whenTheHoldersKeyExpiresAsItWasSet() {
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "rw-writer");
        assertThat(rw(keys, "c1:lease-1", LONG_MS, "r")).as("30-day read hold").isPositive();
        assertThat(rw(keys, "c2:lease-1", SHORT_MS, "r")).as("30 s read hold").isPositive();
        long left = remaining(keys, "c1:lease-1");
        long pttl = pttl(keys.holds());
        if (pttl + CLOCK_MS < left) {
            // The moment the key expires as it was set, pttl ms from now: the key is gone while the 30-day
            // reader still has left - pttl ms of its lease.
            redis.server().command("PEXPIRE", keys.holds(), "1");
            sleep(20);
        }

        assertThat(rw(keys, "c3:lease-1", SHORT_MS, "w"))
                .as(
                        "a writer's try %d ms after the read holds, when the 30-day reader has %d ms left",
                        pttl, left - pttl)
                .isNegative();
    }

    @Test
    void aShortPermit_doesNotShortenTheHoldersKey_belowAFixedPermitLease() {
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "sem-long");
        assertThat(permit(keys, "c1:lease-1", LONG_MS, "0", 1, 2))
                .as("30-day permit")
                .isPositive();
        assertThat(permit(keys, "c2:lease-1", SHORT_MS, "0", 1, 2))
                .as("30 s permit")
                .isPositive();

        assertThat(pttl(keys.holds()))
                .as("the holders' key after a 30 s permit beside a 30-day one")
                .isGreaterThanOrEqualTo(LONG_MS - SLACK_MS);
    }

    @Test
    void aGrantOfAShortLease_doesNotShortenTheHoldersKey_belowAFixedPermitLease() {
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "sem-grant");
        assertThat(permit(keys, "c1:lease-1", LONG_MS, "0", 1, 3))
                .as("30-day permit")
                .isPositive();
        assertThat(permit(keys, "c2:lease-1", LONG_MS, "0", 2, 3))
                .as("two 30-day permits")
                .isPositive();
        assertThat(permit(keys, "c3:lease-1", SHORT_MS, "1", 1, 3)).as("queued").isNegative();
        assertThat(eval(Scripts.SEMAPHORE_RELEASE, keys.scriptKeys(), "c2:lease-1"))
                .as("released, the waiter granted")
                .isEqualTo(2L);

        assertThat(pttl(keys.holds()))
                .as("the holders' key after a grant of 30 s beside a 30-day permit")
                .isGreaterThanOrEqualTo(LONG_MS - SLACK_MS);
    }

    // ---- defect 5: the record lives while its holders and waiters do ------------------------------

    @Test
    void theRecord_outlivesAFixedLease_longerThanSevenDays() {
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "sem-record");
        assertThat(permit(keys, "c1:lease-1", LONG_MS, "0", 1, 2))
                .as("30-day permit")
                .isPositive();

        assertThat(pttl(keys.record()))
                .as("the record's expiry while a 30-day permit is held")
                .isGreaterThanOrEqualTo(LONG_MS - SLACK_MS);

        assertThat(permit(keys, "c2:lease-1", SHORT_MS, "0", 1, 2))
                .as("30 s permit")
                .isPositive();
        assertThat(client.semaphore("sem-record", 2).availablePermits()).isZero();
        assertThat(eval(Scripts.SEMAPHORE_RELEASE, keys.scriptKeys(), "c2:lease-1"))
                .isEqualTo(1L);
        assertThat(pttl(keys.record()))
                .as("the record's expiry after a 30 s permit, a read and a release beside the 30-day one")
                .isGreaterThanOrEqualTo(LONG_MS - SLACK_MS);
    }

    @Test
    void setPermits_holds_afterSevenDaysOfRenewalsWithoutAnAcquire() {
        DistributedSemaphore semaphore = client.semaphore("sem-set", 3);
        semaphore.setPermits(1);
        assertThat(semaphore.tryAcquire(Duration.ZERO)).as("the one permit").isPresent();
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "sem-set");

        sevenDaysLater(keys);
        sleep(2 * LEASE_MS); // past the emulated expiry; the watchdog renews the permit meanwhile

        assertThat(semaphore.tryAcquire(Duration.ZERO))
                .as("a second permit of 1")
                .isEmpty();
        assertThat(semaphore.tryAcquire(Duration.ZERO))
                .as("a third permit of 1")
                .isEmpty();
        assertThat(redis.server().command("GET", keys.record())).isEqualTo("semaphore 3 1");
    }

    @Test
    void aRenewedHolder_keepsItsNamesKind_afterSevenDaysWithoutAnAcquire() {
        DistributedSemaphore semaphore = client.semaphore("sem-kind", 2);
        assertThat(semaphore.tryAcquire(Duration.ZERO)).as("a permit").isPresent();
        assertThat(client.readWriteLock("rw-kind").readLock().tryAcquire(Duration.ZERO))
                .as("a read hold")
                .isPresent();

        for (String name : new String[] {"sem-kind", "rw-kind"}) {
            sevenDaysLater(SemaphoreKeys.of("dlock", name));
        }
        sleep(2 * LEASE_MS);

        LockInfo sem = client.admin().status("sem-kind");
        assertThat(sem.kind()).as("kind of sem-kind").isEqualTo("semaphore");
        assertThat(sem.holders()).as("holders of sem-kind").hasSize(1);
        LockInfo rw = client.admin().status("rw-kind");
        assertThat(rw.kind()).as("kind of rw-kind").isEqualTo("rw");
        assertThat(rw.holders()).as("holders of rw-kind").hasSize(1);
        assertThatThrownBy(() -> client.lock("rw-kind").tryAcquire(Duration.ZERO))
                .as("a mutex on the read-held name")
                .isInstanceOf(LockServerException.class)
                .hasMessageContaining("holds a value of another type");
    }

    @Test
    void aLostRecord_isReported_notRebuiltWithTheCountInCode() {
        DistributedSemaphore semaphore = client.semaphore("sem-lost", 3);
        semaphore.setPermits(1);
        assertThat(semaphore.tryAcquire(Duration.ZERO)).as("the one permit").isPresent();
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "sem-lost");
        redis.server().command("DEL", keys.record()); // evicted, deleted by hand, lost in a failover

        assertThatThrownBy(() -> semaphore.tryAcquire(Duration.ZERO))
                .as("an acquire while the record is gone and a permit is held")
                .isInstanceOf(LockServerException.class)
                .hasMessageContaining("lost its record");
        assertThatThrownBy(semaphore::availablePermits)
                .isInstanceOf(LockServerException.class)
                .hasMessageContaining("lost its record");

        semaphore.setPermits(1);
        assertThat(redis.server().command("GET", keys.record())).isEqualTo("semaphore 3 1");
        assertThat(semaphore.tryAcquire(Duration.ZERO))
                .as("a second permit of 1")
                .isEmpty();
    }

    @Test
    void aChangedCount_hasNoExpiry_andTheDeclaredCountOneAgain() {
        DistributedSemaphore semaphore = client.semaphore("sem-back", 3);
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "sem-back");
        semaphore.setPermits(1);
        assertThat(pttl(keys.record())).as("a changed count's record").isEqualTo(-1L);
        assertThat(semaphore.tryAcquire(1, Duration.ZERO, Duration.ofDays(30))).isPresent();
        assertThat(pttl(keys.record())).as("beside a 30-day permit").isEqualTo(-1L);

        semaphore.setPermits(3);
        assertThat(pttl(keys.record()))
                .as("back at the declared count, beside a 30-day permit")
                .isGreaterThanOrEqualTo(pttl(keys.holds()))
                .isGreaterThanOrEqualTo(LONG_MS - SLACK_MS);
    }

    @Test
    void aChangedCountWrittenWithAnExpiry_losesItAtItsNextUse() {
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "sem-old");
        redis.server().command("SET", keys.record(), "semaphore 3 1", "PX", Long.toString(IDLE_MS));

        assertThat(client.semaphore("sem-old", 3).availablePermits()).isEqualTo(1);
        assertThat(pttl(keys.record()))
                .as("the record's expiry after its next use")
                .isEqualTo(-1L);
    }

    @Test
    void aReadWriteRecordMadeAgain_livesAsLongAsItsHolders() {
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "rw-again");
        assertThat(rw(keys, "c1:lease-1", LONG_MS, "r")).as("30-day read hold").isPositive();
        redis.server().command("DEL", keys.record());

        assertThat(rw(keys, "c2:lease-1", SHORT_MS, "r")).as("30 s read hold").isPositive();
        assertThat(redis.server().command("GET", keys.record())).isEqualTo("rw 1000000 1000000");
        assertThat(pttl(keys.record())).as("the record made again").isGreaterThanOrEqualTo(LONG_MS - SLACK_MS);
    }

    @Test
    void aRenewal_keepsOnlyARecordLonger_notAMutexThatTookTheName() {
        SemaphoreKeys keys = SemaphoreKeys.of("dlock", "sem-mutex");
        assertThat(permit(keys, "c1:lease-1", SHORT_MS, "0", 1, 2))
                .as("a permit")
                .isPositive();
        redis.server().command("DEL", keys.record());
        redis.server().command("HSET", keys.record(), "owner", "c9:thread-1", "token", "1");
        redis.server().command("PEXPIRE", keys.record(), "5000");
        redis.server().command("PEXPIRE", keys.holds(), "100");

        assertThat(eval(Scripts.SEMAPHORE_RENEW, new String[] {keys.holds()}, Long.toString(SHORT_MS), "c1:lease-1"))
                .isEqualTo(List.of(1L));
        assertThat(pttl(keys.holds())).as("the holders' key").isGreaterThan(SHORT_MS - SLACK_MS);
        assertThat(pttl(keys.record())).as("the mutex's lease").isBetween(1L, 5000L);
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /**
     * Puts the name's keys where 7 idle days after the last acquire leave them, the watchdog having
     * renewed meanwhile: each key whose expiry that acquire set to 7 days or less has a little less than a
     * lease left (so the next renewal round, due within a third of a lease, comes before it expires); a
     * key that lives longer or has no expiry keeps it.
     */
    private static void sevenDaysLater(SemaphoreKeys keys) {
        for (String key : keys.scriptKeys()) {
            long pttl = pttl(key);
            if (pttl > 0 && pttl <= IDLE_MS) {
                redis.server().command("PEXPIRE", key, Long.toString(LEASE_MS - 100));
            }
        }
    }

    private static long rw(SemaphoreKeys keys, String owner, long leaseMs, String role) {
        return (Long)
                eval(Scripts.RW_ACQUIRE, keys.scriptKeys(), owner, Long.toString(leaseMs), "0", "5000", "-", role, "-");
    }

    private static long permit(SemaphoreKeys keys, String owner, long leaseMs, String mode, int n, int declared) {
        return (Long) eval(
                Scripts.SEMAPHORE_ACQUIRE,
                keys.scriptKeys(),
                owner,
                Long.toString(leaseMs),
                mode,
                "5000",
                mode.equals("1") ? "w1" : "-",
                Integer.toString(n),
                Integer.toString(declared));
    }

    /** The ms left of a holder's lease, by server time. */
    private static long remaining(SemaphoreKeys keys, String owner) {
        String entry = (String) redis.server().command("HGET", keys.holds(), owner);
        List<?> time = (List<?>) redis.server().command("TIME");
        long now = Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
        return Long.parseLong(entry.split(" ")[2]) - now;
    }

    private static long pttl(String key) {
        return (Long) redis.server().command("PTTL", key);
    }

    private static Object eval(Script script, String[] keys, String... args) {
        RedisServer server = redis.server();
        try {
            return server.command(ScriptCommand.of("EVAL", script.source(), keys, args));
        } catch (RedisErrorReply e) {
            throw new AssertionError(script.name() + " failed: " + e.getMessage(), e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(Timing.scaled(Duration.ofMillis(ms)).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
