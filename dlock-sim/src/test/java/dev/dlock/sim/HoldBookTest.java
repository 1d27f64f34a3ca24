package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.sim.HoldBook.Hold;
import dev.dlock.sim.HoldBook.Kind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The book's server-side checks: a mutex hold relayed within its client's token block, a holders' hash's life; and a
 * new permit against a lowered count in force.
 */
final class HoldBookTest {
    private static final long NOW = 1_800_000_000_000L;

    private final SimRedis server = new SimRedis(() -> NOW);
    private final HoldBook book = new HoldBook(server, 3, List.of());

    private static final HoldBook.View VALID = new HoldBook.View() {
        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public Duration remaining() {
            return Duration.ofSeconds(1);
        }
    };

    private String holding(Kind kind, String name, long token) {
        Hold hold = new Hold(kind, name, token, VALID, 1);
        book.taken(hold);
        String wrong = book.check(NOW);
        book.released(hold);
        return wrong;
    }

    @Test
    void aMutexHold_isHeld_withTheServersTokenOrALaterOneOfItsRelayBlock() {
        server.call("HSET", "dlock:{m}", "owner", "c:thread-1", "token", "1000");
        assertThat(holding(Kind.MUTEX, "m", 1000)).isNull();
        assertThat(holding(Kind.MUTEX, "m", 1000 + HoldBook.RELAY_BLOCK - 1)).isNull();
        assertThat(holding(Kind.MUTEX, "m", 1000 + HoldBook.RELAY_BLOCK)).contains("the server's lock has token 1000");
        assertThat(holding(Kind.MUTEX, "m", 999)).contains("the server's lock has token 1000");
    }

    @Test
    void aSharedHold_needsAHoldersHashThatOutlivesItsEntry() {
        long expiry = NOW + 8L * 24 * 3600 * 1000;
        server.call("HSET", "dlock:{rw}:holds", "c:lease-1", "1 77 " + expiry);
        server.call("PEXPIRE", "dlock:{rw}:holds", Long.toString(expiry - NOW));
        assertThat(holding(Kind.READ, "rw", 77)).isNull();
        server.call("PEXPIRE", "dlock:{rw}:holds", Long.toString(7L * 24 * 3600 * 1000));
        assertThat(holding(Kind.READ, "rw", 77)).contains("holders' hash expires at");
    }

    @Test
    void aNewPermit_isJudgedByALoweredCount_onlyWhenItWasSurelyInForceBeforeItsAcquire() {
        book.taken(new Hold(Kind.PERMIT, "s", 1, VALID, 1));
        Hold second = new Hold(Kind.PERMIT, "s", 2, VALID, 2);
        book.taken(second);
        assertThat(book.withinCount(second, 50)).as("the created count").isNull();
        book.setPermitsStarted("s");
        book.setPermitsDone("s", 1, 40);
        assertThat(book.withinCount(second, 30))
                .as("acquire began before the count was known")
                .isNull();
        assertThat(book.withinCount(second, 50)).contains("2 valid permit holds of s after setPermits(1)");
        book.released(second);
        Hold third = new Hold(Kind.PERMIT, "s", 3, VALID, 3);
        book.taken(third);
        book.setPermitsStarted("s");
        assertThat(book.withinCount(third, 60))
                .as("another setPermits begun: the count is not known")
                .isNull();
        book.setPermitsDone("s", 2, 70);
        assertThat(book.withinCount(third, 80)).as("within 2").isNull();
    }
}
