package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The quiescence check's allowance: fencing counters and shared records that expire, holds hashes of expired entries;
 * nothing else.
 */
final class LeftoversTest {
    private final SimRedis server = new SimRedis(() -> 1_000_000L);

    @Test
    void fencingCountersAndExpiringRecords_areAllowed() {
        server.call("SET", "dlock:{m0}:fence", "17", "PX", "604800000");
        server.call("SET", "dlock:{p0}", "semaphore 3 3", "PX", "604800000");
        server.call("SET", "dlock:{rw0}", "rw 1000000 1000000", "PX", "1000");
        assertThat(Leftovers.unexpected(server)).isNull();
    }

    @Test
    void aSharedHoldsHash_isAllowedOnlyWhenEveryEntryExpired() {
        // the server's clock is 1,000,000 ms: one entry expired at 999,999, the other lives until 1,000,001
        server.call("HSET", "dlock:{p0}:holds", "c1:lease-1", "1 17 999999", "c2:lease-2", "1 18 999000 g");
        server.call("PEXPIRE", "dlock:{p0}:holds", "604800000");
        assertThat(Leftovers.unexpected(server)).isNull();
        server.call("HSET", "dlock:{p0}:holds", "c3:lease-3", "1 19 1000001");
        assertThat(Leftovers.unexpected(server)).contains("dlock:{p0}:holds (hash");
    }

    @Test
    void liveEntries_areAllowed_asManyAsAcquiresOfTheNameHadAnUnknownOutcome() {
        server.call("HSET", "dlock:{rw0}:holds", "c1:lease-1", "1000000 17 2000000 g", "c2:lease-2", "1 18 999000");
        server.call("PEXPIRE", "dlock:{rw0}:holds", "604800000");
        assertThat(Leftovers.unexpected(server, 0, java.util.Set.of(), java.util.Map.of("rw0", 1)))
                .isNull();
        assertThat(Leftovers.unexpected(server, 0, java.util.Set.of(), java.util.Map.of("rw1", 1)))
                .contains("dlock:{rw0}:holds (hash");
        server.call("HSET", "dlock:{rw0}:holds", "c3:lease-3", "1 19 2000000");
        assertThat(Leftovers.unexpected(server, 0, java.util.Set.of(), java.util.Map.of("rw0", 1)))
                .contains("dlock:{rw0}:holds (hash");
    }

    @Test
    void aChangedCount_mayHaveNoExpiry() {
        server.call("SET", "dlock:{s0}", "semaphore 3 1");
        assertThat(Leftovers.unexpected(server)).isNull();
    }

    @Test
    void aHold_aQueue_orARecordThatNeverExpires_isReported() {
        server.call("SET", "dlock:{p0}", "semaphore 3 3"); // no expiry
        server.call("HSET", "dlock:{m0}", "owner", "c1:lease-1", "token", "5");
        server.call("PEXPIRE", "dlock:{m0}", "1000");
        server.call("ZADD", "dlock:{m1}:q", "1", "c2:lease-9");
        server.call("PEXPIRE", "dlock:{m1}:q", "5000");
        server.call("SET", "dlock:{m2}:fence", "not a number", "PX", "1000");
        assertThat(Leftovers.unexpected(server))
                .contains("dlock:{p0} (string, pttl -1 ms)")
                .contains("dlock:{m0} (hash")
                .contains("dlock:{m1}:q (zset")
                .contains("dlock:{m2}:fence (string");
    }
}
