package dev.dlock.internal.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.internal.testing.ScriptCommand;
import dev.dlock.internal.testing.SocketTransport;
import dev.dlock.spi.Script;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.RedisServer;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Who may confirm a mutex hand-off ({@code acquire.lua}'s grant branch), on a real server. A release hands the lock
 * to a queued wait W1 of owner O with token T and leaves {@code granted} set until a try confirms it. A thread's owner
 * id is the same for all its waits, so a later acquisition of O (its next {@code lock()} after a release that never
 * ran: dlock-sim's seed 156) must take a fresh token above T: docs/fencing.md promises strictly increasing tokens
 * across the holds of a name, and two holds with T break it. The try of W1 itself that was on its way while the
 * release ran still confirms the hand-off with T (the same hold: docs/waiting.md). The shared kinds' scripts re-take
 * an owner's entry with its token whatever the wait (shared.lua), which is safe only because every acquire of a
 * permit or a read or write hold has an owner id of its own: the last test pins that.
 */
final class GrantConfirmationIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final String LEASE = "30000";
    private static final String ENTRY = "5000";

    @Test
    void aNextQueueingAcquire_ofTheGrantedOwner_underAnotherWait_takesAFreshToken() {
        Grant g = handOff("next-queue", "w1.1");
        long token = acquire(g, "1", "w2.1");
        assertThat(token).as("a new wait's token after the grant's %d", g.token).isGreaterThan(g.token);
        assertThat(field(g, "token")).isEqualTo(Long.toString(token));
        assertThat(field(g, "granted")).as("no hand-off left to confirm").isNull();
    }

    @Test
    void aNextPlainTry_ofTheGrantedOwner_takesAFreshToken() {
        Grant g = handOff("next-try", "w1.1");
        long token = acquire(g, "0");
        assertThat(token)
                .as("a plain try's token after the grant's %d", g.token)
                .isGreaterThan(g.token);
        assertThat(field(g, "granted")).isNull();
    }

    @Test
    void aLeavingTry_ofTheGrantedOwner_takesTheLock_withAFreshToken() {
        Grant g = handOff("leave", "w1.1");
        long token = acquire(g, "2");
        assertThat(token).as("taken, not busy: the lock is the owner's").isGreaterThan(g.token);
        assertThat(redis.server().command("ZCARD", g.keys.queue())).isEqualTo(0L);
    }

    @Test
    void theGrantedWaitsTryOnItsWay_confirmsTheHandOff_withTheGrantsToken() {
        Grant g = handOff("in-flight", "w1.1");
        assertThat(acquire(g, "1", "w1.2"))
                .as("a later try of the granted wait")
                .isEqualTo(g.token);
        assertThat(field(g, "granted")).as("confirmed").isNull();
        assertThat(acquire(g, "1", "w2.1"))
                .as("a next wait after the confirmed hand-off")
                .isGreaterThan(g.token);
    }

    @Test
    void theTryWhoseEntryWasGranted_confirmsTheHandOff_withTheGrantsToken() {
        Grant g = handOff("same-try", "w1.1");
        assertThat(acquire(g, "1", "w1.1")).isEqualTo(g.token);
    }

    @Test
    void aHandOffToAnEntryWithoutWaitId_isConfirmedByAnyTryOfItsOwner_asBeforeWaitIds() {
        Grant g = handOff("old-entry", null);
        assertThat(acquire(g, "0"))
                .as("nothing names the wait: the owner's try confirms")
                .isEqualTo(g.token);
    }

    @Test
    void everySharedAcquire_hasAnOwnerIdOfItsOwn_soNoLaterAcquireReTakesAnEarlierHold() {
        try (LockClient client = LockClient.builder()
                .redisUri(redis.server().uri())
                .transport(new SocketTransport.Factory())
                .build()) {
            Lease first = client.semaphore("shared-owners", 2).acquire();
            Lease second = client.semaphore("shared-owners", 2).acquire();
            assertThat(second.fencingToken()).as("same thread, second permit").isGreaterThan(first.fencingToken());
            assertThat((List<?>) redis.server()
                            .command(
                                    "HKEYS",
                                    SemaphoreKeys.of("dlock", "shared-owners").holds()))
                    .as("two holders")
                    .hasSize(2);
            Lease read1 = client.readWriteLock("rw-owners").readLock().acquire();
            Lease read2 = client.readWriteLock("rw-owners").readLock().acquire();
            assertThat(read2.fencingToken()).as("same thread, second read hold").isGreaterThan(read1.fencingToken());
            assertThat((List<?>) redis.server()
                            .command(
                                    "HKEYS",
                                    SemaphoreKeys.of("dlock", "rw-owners").holds()))
                    .as("two read holders")
                    .hasSize(2);
            for (Lease l : new Lease[] {first, second, read1, read2}) {
                l.release();
            }
        }
    }

    /** A lock handed by a release to owner O's queue entry naming {@code wait} (null: an entry from before wait ids). */
    private record Grant(LockKeys keys, String owner, long token) {}

    private static Grant handOff(String name, String wait) {
        RedisServer server = redis.server();
        LockKeys keys = LockKeys.of("grant", name);
        String holder = UUID.randomUUID() + ":thread-1";
        String owner = UUID.randomUUID() + ":thread-1";
        assertThat((Long) eval(Scripts.ACQUIRE, keys, holder, LEASE, "0", ENTRY))
                .isGreaterThan(0L);
        if (wait != null) {
            assertThat((Long) eval(Scripts.ACQUIRE, keys, owner, LEASE, "1", ENTRY, wait))
                    .as("busy: queued")
                    .isLessThan(0L);
        } else {
            long expiry = System.currentTimeMillis() + 60_000; // the server runs on this host
            server.command("ZADD", keys.queue(), "1", owner);
            server.command("HSET", keys.entries(), owner, expiry + " " + LEASE);
        }
        assertThat(eval(Scripts.RELEASE, keys, holder))
                .as("released and handed over")
                .isEqualTo(2L);
        assertThat(server.command("HGET", keys.lock(), "owner")).isEqualTo(owner);
        assertThat(server.command("HEXISTS", keys.lock(), "granted")).isEqualTo(1L);
        long token = Long.parseLong(server.command("HGET", keys.lock(), "token").toString());
        return new Grant(keys, owner, token);
    }

    /** acquire.lua by the grant's owner in {@code mode}, with the wait id when given (as QueuedAcquisition sends it). */
    private static long acquire(Grant g, String mode, String... wait) {
        String[] args = new String[4 + wait.length];
        args[0] = g.owner;
        args[1] = LEASE;
        args[2] = mode;
        args[3] = ENTRY;
        System.arraycopy(wait, 0, args, 4, wait.length);
        return (Long) eval(Scripts.ACQUIRE, g.keys, args);
    }

    private static Object field(Grant g, String field) {
        return redis.server().command("HGET", g.keys.lock(), field);
    }

    private static Object eval(Script script, LockKeys keys, String... args) {
        return redis.server().command(ScriptCommand.of("EVAL", script.source(), keys.scriptKeys(), args));
    }
}
