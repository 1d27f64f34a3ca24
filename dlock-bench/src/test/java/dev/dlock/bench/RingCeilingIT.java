package dev.dlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** W5's ceiling against a real redis-server with real processes: one token goes round, and every hand-off is a push. */
final class RingCeilingIT {

    @Test
    void bothRingsPassTheToken_andNeverCountMoreHandOffsThanPushes() {
        Settings settings = Settings.quick().withPhaseMillis(500, 1_000);
        try (RedisServer server = RedisServer.builder().start()) {
            server.command("CONFIG", "RESETSTAT");
            List<RingCeiling.Result> results = RingCeiling.run(server, settings, 1);

            assertThat(results).extracting(RingCeiling.Result::hop).containsExactly(false, true);
            double handoffs = 0; // in the one-second windows of both rings
            for (RingCeiling.Result r : results) {
                // A ring that passes the token, not one that moves on BLPOP timeouts (one a second or so); how fast it
                // goes is W5's figure, not this test's (a busy host's run counted 47 a second, a quiet one thousands).
                assertThat(r.handoffsPerSecond()).as("hop %s", r.hop()).isGreaterThan(10);
                handoffs += r.handoffsPerSecond();
            }
            // Each counted hand-off is a member's BLPOP returning a token another member pushed.
            assertThat((double) pushes(server)).isGreaterThanOrEqualTo(handoffs);
        }
    }

    private static long pushes(RedisServer server) {
        String stats = (String) server.command("INFO", "commandstats");
        return Long.parseLong(stats.replaceAll("(?s).*cmdstat_lpush:calls=(\\d+).*", "$1"));
    }
}
