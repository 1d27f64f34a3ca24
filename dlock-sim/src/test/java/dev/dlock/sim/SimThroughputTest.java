package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How fast the simulated server runs dlock's scripts: a contended mutex (acquire, a queued waiter, release with
 * hand-off, the waiter's take) in a loop for about a second, printed, not asserted (the host is shared). Every reply
 * is checked, so the loop measures scripts that did their work.
 */
final class SimThroughputTest {
    @Test
    void measure_scriptsAndCommandsPerSecond() {
        ScriptCatalog catalog = new ScriptCatalog();
        long[] now = {1_700_000_000_000L};
        SimRedis redis = new SimRedis(() -> now[0]);
        String acquire = redis.scriptLoad(catalog.source("acquire"));
        String release = redis.scriptLoad(catalog.source("release"));
        String[] keys = {"L:{t}", "L:{t}:fence", "L:{t}:q", "L:{t}:qe"};
        long scripts = 0;
        long started = System.nanoTime();
        long deadline = started + 1_000_000_000L;
        int rounds = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 100; i++, rounds++) {
                now[0]++;
                Object token = redis.evalsha(acquire, keys, new String[] {"c1:a", "30000", "0", "5000", "-"});
                assertThat(token).isInstanceOf(Long.class);
                Object busy = redis.evalsha(acquire, keys, new String[] {"c2:b", "30000", "1", "5000", "w"});
                assertThat((Long) busy).isLessThan(-1L);
                assertThat(redis.evalsha(release, keys, new String[] {"c1:a"})).isEqualTo(2L); // handed over
                assertThat((Long) redis.evalsha(acquire, keys, new String[] {"c2:b", "30000", "0", "5000", "-"}))
                        .isGreaterThan((Long) token);
                assertThat(redis.evalsha(release, keys, new String[] {"c2:b"})).isEqualTo(1L);
                scripts += 5;
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf(
                "SimRedis: %d scripts, %d commands in %.2f s: %.0f scripts/s, %.0f commands/s (%d rounds)%n",
                scripts, redis.commandCount(), seconds, scripts / seconds, redis.commandCount() / seconds, rounds);
        assertThat(redis.call("EXISTS", keys[0], keys[2], keys[3])).isEqualTo(0L);
    }
}
