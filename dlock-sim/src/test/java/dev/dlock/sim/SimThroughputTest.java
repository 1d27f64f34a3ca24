package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How fast the simulated server runs dlock's scripts: a contended mutex (acquire, a queued waiter, release with
 * hand-off, the waiter's take) in a loop, half a second to warm up the JIT and then two seconds measured, printed, not
 * asserted (the host is shared: other builds on its two cores move the figure by a factor of several). Every reply
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
        long warm = started + 500_000_000L;
        long deadline = warm + 2_000_000_000L;
        long commandsAtWarm = -1;
        int rounds = 0;
        while (System.nanoTime() < deadline) {
            if (commandsAtWarm < 0 && System.nanoTime() >= warm) {
                commandsAtWarm = redis.commandCount();
                scripts = 0;
                started = System.nanoTime();
            }
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
        long commands = redis.commandCount() - commandsAtWarm;
        System.out.printf(
                "SimRedis: %d scripts, %d commands in %.2f s after warm-up: %.0f scripts/s, %.0f commands/s%n",
                scripts, commands, seconds, scripts / seconds, commands / seconds);
        assertThat(redis.call("EXISTS", keys[0], keys[2], keys[3])).isEqualTo(0L);
    }
}
