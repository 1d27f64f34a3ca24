package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The check that no mutex or Redlock lock is held once every caller gave its holds back: a lock hash or a Redlock key
 * left is reported, what outlives a lock by design is not.
 */
final class UnownedLocksTest {
    private final SimRedis server = new SimRedis(() -> 1_000_000L);
    private final List<SimRedis> nodes =
            List.of(new SimRedis(() -> 1_000_000L), new SimRedis(() -> 1_000_000L), new SimRedis(() -> 1_000_000L));

    @Test
    void countersRecordsAndQueues_areNoHold() {
        server.call("SET", "dlock:{m0}:fence", "17", "PX", "604800000");
        server.call("SET", "dlock:{rw0}", "rw 1000000 1000000", "PX", "1000");
        server.call("HSET", "dlock:{rw0}:holds", "c1:lease-1", "1 17 2000000");
        server.call("ZADD", "dlock:{m1}:q", "1", "c2:lease-9");
        nodes.get(1).call("SET", "dlock:{r0}:redlock-fence", "9");
        assertThat(UnownedLocks.held(server, nodes)).isNull();
    }

    @Test
    void aMutexHeld_isReported_withItsHolder() {
        server.call("HSET", "dlock:{m2}", "owner", "sim00001-0000abcd:thread-2", "token", "5");
        server.call("PEXPIRE", "dlock:{m2}", "1000");
        assertThat(UnownedLocks.held(server, nodes))
                .contains("dlock:{m2} by sim00001-0000abcd:thread-2 (pttl 1000 ms)");
    }

    @Test
    void aRedlockKeyOnAnyMaster_isReported() {
        nodes.get(2).call("SET", "dlock:{r1}:redlock", "red00000-00000001:lease-7", "PX", "1000");
        assertThat(UnownedLocks.held(server, nodes))
                .contains("dlock:{r1}:redlock on Redlock master 2 by red00000-00000001:lease-7");
    }
}
