package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.spi.RedisReplyException;
import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * One seed and one clock give one trace, reply for reply, dropped connections included; and the workload covers every
 * script of dlock-core.
 */
final class SimDeterminismTest {
    @Test
    void sameSeedAndClock_giveTheSameTrace() {
        long seed = 42;
        List<String> first = trace(seed);
        assertThat(first).hasSizeGreaterThan(100);
        assertThat(trace(seed)).isEqualTo(first);
        assertThat(trace(seed + 1)).isNotEqualTo(first);
    }

    @Test
    void aRunWithDroppedConnections_repeatsItsTrace() {
        SimConfig config = SimConfig.parse("seed=42,steps=10000,dropEvery=10");
        java.util.logging.Logger dlock = java.util.logging.Logger.getLogger("dev.dlock");
        java.util.logging.Level level = dlock.getLevel();
        dlock.setLevel(java.util.logging.Level.OFF); // a simulated lease lost is logged as a real one would be
        try {
            repeats(config);
        } finally {
            dlock.setLevel(level);
        }
    }

    @Test
    void aRunWithRedlockMastersLosingTheirData_repeatsItsTrace_fromItsPrintedConfigToo() {
        SimConfig config = SimConfig.parse("seed=42,steps=20000,wipeEvery=2,fenceCut=0.5");
        java.util.logging.Logger dlock = java.util.logging.Logger.getLogger("dev.dlock");
        java.util.logging.Level level = dlock.getLevel();
        dlock.setLevel(java.util.logging.Level.OFF);
        try {
            Simulation.Result first = Simulation.run(config);
            assertThat(first.violation()).isNull();
            assertThat(SimConfig.parse(config.compact())).isEqualTo(config);
            assertThat(Simulation.run(SimConfig.parse(config.compact())).traceHash())
                    .isEqualTo(first.traceHash());
            assertThat(Simulation.run(config.with(x -> x.wipeEverySeconds = 0)).traceHash())
                    .as("the crashes change the trace")
                    .isNotEqualTo(first.traceHash());
        } finally {
            dlock.setLevel(level);
        }
    }

    private static void repeats(SimConfig config) {
        Simulation.Result first = Simulation.run(config);
        assertThat(first.drops()).as("connections dropped").isGreaterThan(10);
        assertThat(first.violation()).isNull();
        Simulation.Result second = Simulation.run(config);
        assertThat(second.traceHash()).isEqualTo(first.traceHash());
        assertThat(second.drops()).isEqualTo(first.drops());
        assertThat(Simulation.run(config.with(x -> x.dropEverySeconds = 0)).traceHash())
                .as("the drops change the trace")
                .isNotEqualTo(first.traceHash());
    }

    private static List<String> trace(long seed) {
        long[] now = {1_800_000_000_000L};
        SimRedis redis = new SimRedis(() -> now[0]);
        Workload workload = new Workload(new Random(seed), new ScriptCatalog());
        List<String> out = new ArrayList<>();
        for (String[] command : workload.setup(now[0])) {
            out.add(reply(redis, command));
        }
        for (int i = 0; i < 200; i++) {
            now[0] += 37;
            String[] next = workload.next();
            out.add(next[0] + " -> " + reply(redis, Arrays.copyOfRange(next, 1, next.length)));
        }
        for (Object key : (List<?>) redis.call("KEYS", "*")) {
            out.add(key + " " + reply(redis, "TYPE", (String) key) + " " + reply(redis, "PTTL", (String) key));
        }
        return out;
    }

    private static String reply(SimRedis redis, String... argv) {
        try {
            return String.valueOf(redis.call(argv));
        } catch (RedisReplyException e) {
            return "error " + e.getMessage();
        }
    }

    @Test
    void catalog_composesEveryScriptResourceOfDlockCore() throws URISyntaxException {
        assertThat(ScriptCatalog.allScriptsCovered()).isTrue();
        URL dir = ScriptCatalog.class.getResource("/dev/dlock/internal/script/");
        if (dir != null && dir.getProtocol().equals("file")) { // dlock-core's classes from the reactor: list them
            String[] files = new File(dir.toURI()).list((d, name) -> name.endsWith(".lua"));
            List<String> names = new ArrayList<>();
            for (String f : files) {
                names.add(f.substring(0, f.length() - 4));
            }
            List<String> composed = new ArrayList<>();
            ScriptCatalog.COMPOSITION.values().forEach(parts -> composed.addAll(List.of(parts)));
            assertThat(composed).containsAll(names);
        }
    }
}
