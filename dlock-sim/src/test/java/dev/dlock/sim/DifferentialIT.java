package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.spi.RedisReplyException;
import dev.dlock.testkit.RedisErrorReply;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.RespConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulated Redis against a real {@code redis-server} (started by the testkit on a free port): seeded sequences of
 * random key states, every dlock script with plausible arguments and plain commands, the same on both, every reply and
 * the keyspace after every step compared ({@link Differential} says how, with its time tolerance).
 *
 * <p>Each run prints its base seed; {@code -Ddlock.sim.seed=N} replays the one sequence of seed N (printed on a
 * mismatch), {@code -Ddlock.sim.sequences=N} sets how many sequences run (default 40).
 */
final class DifferentialIT {
    private static final int STEPS = 25;
    private static RedisServer server;
    private static RespConnection connection;
    private static RealSubscriber subscriber;

    @BeforeAll
    static void start() throws IOException {
        server = RedisServer.builder().start();
        connection = RespConnection.open(server.host(), server.port(), null, Duration.ofSeconds(10));
        subscriber = new RealSubscriber(server.host(), server.port(), Workload.wakeChannels());
    }

    @AfterAll
    static void stop() throws IOException {
        if (subscriber != null) {
            subscriber.close();
        }
        if (connection != null) {
            connection.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void simulatedRedis_answersAsTheRealOne() throws InterruptedException {
        String replay = System.getProperty("dlock.sim.seed");
        int sequences = Integer.getInteger("dlock.sim.sequences", 40);
        long base = replay != null ? Long.parseLong(replay) : new Random().nextLong();
        System.out.println("DifferentialIT base seed " + base + (replay != null ? " (replay of one sequence)" : ""));
        long started = System.nanoTime();
        long steps = 0;
        int run = replay != null ? 1 : sequences;
        List<String> inconclusive = new ArrayList<>();
        int reruns = 0;
        for (int i = 0; i < run; i++) {
            long seed = base + i;
            String mismatch = null;
            Differential differential = null;
            for (int attempt = 1; attempt <= 3; attempt++) { // a host stall cuts a sequence short: run it again
                differential = differential(new SimRedis(System::currentTimeMillis));
                try {
                    mismatch = sequence(differential, seed);
                    break;
                } catch (Differential.Inconclusive e) {
                    steps += differential.steps();
                    reruns++;
                    if (attempt == 3) {
                        inconclusive.add("seed " + seed + ": " + e.getMessage());
                        differential = null;
                    }
                }
            }
            if (differential == null) {
                continue;
            }
            steps += differential.steps();
            if (Boolean.getBoolean("dlock.sim.printLog")) {
                System.out.println(differential.log());
            }
            assertThat(mismatch)
                    .as(
                            "sequence of seed %d (replay: -Ddlock.sim.seed=%d); its steps:%n%s",
                            seed, seed, differential.log())
                    .isNull();
        }
        System.out.printf(
                "DifferentialIT: %d sequences (%d run again after a host stall; %d inconclusive in 3 tries %s), %d compared"
                        + " steps, %.1f s%n",
                run, reruns, inconclusive.size(), inconclusive, steps, (System.nanoTime() - started) / 1e9);
        assertThat(inconclusive.size())
                .as("sequences cut short by host stalls: %s", inconclusive)
                .isLessThanOrEqualTo(run / 4);
    }

    @Test
    void differentialRun_bites_whenOneCommandIsBroken() throws InterruptedException {
        String mismatch = firstMismatch(sim -> sim.breakPttlForTest(1_000)); // PTTL a second too much
        System.out.println("DifferentialIT control (PTTL + 1 s) found: " + mismatch);
        assertThat(mismatch).isNotNull().contains("PTTL");
    }

    @Test
    void differentialRun_bites_whenLuajsOwnFormatRuns() throws InterruptedException {
        // LuaJ's string.format('%d') takes 32 bits: fencing tokens of server time in µs come out mangled
        String mismatch = firstMismatch(SimRedis::breakFormatForTest);
        System.out.println("DifferentialIT control (LuaJ's %d) found: " + mismatch);
        assertThat(mismatch).isNotNull();
    }

    /** The first mismatch of up to 20 sequences against a sim broken by {@code control}, or null. */
    private static String firstMismatch(java.util.function.Consumer<SimRedis> control) throws InterruptedException {
        long base = new Random().nextLong();
        String mismatch = null;
        for (int i = 0; i < 20 && mismatch == null; i++) {
            SimRedis sim = new SimRedis(System::currentTimeMillis);
            control.accept(sim);
            try {
                mismatch = sequence(differential(sim), base + i);
            } catch (Differential.Inconclusive e) {
                mismatch = null; // a host stall: try the next seed
            }
        }
        return mismatch;
    }

    /** One sequence: a fresh keyspace in a random state, then random steps; the first mismatch, or null. */
    static String sequence(Differential run, long seed) throws InterruptedException {
        Random random = new Random(seed);
        Workload workload = new Workload(random, CATALOG);
        String mismatch = run.step("FLUSHALL", Differential.Order.AS_IS, "FLUSHALL");
        for (String[] command : workload.setup(System.currentTimeMillis())) {
            if (mismatch == null) {
                mismatch = run.step(String.join(" ", command), Differential.Order.AS_IS, command);
            }
        }
        for (int s = 0; s < STEPS && mismatch == null; s++) {
            mismatch = run.compareKeyspace();
            if (mismatch != null) {
                break;
            }
            if (random.nextInt(100) < 6) {
                Thread.sleep(100 + random.nextInt(300)); // lets short TTLs and entries run out on both servers
            }
            run.awaitNoNearInstant(); // last before the step: no expiry within the guard of the step's time
            String[] next = workload.next();
            String[] argv = Arrays.copyOfRange(next, 1, next.length);
            Differential.Order order =
                    next[0].startsWith("admin-scan") ? Differential.Order.SORTED_AFTER_FIRST : Differential.Order.AS_IS;
            mismatch = run.step(next[0], order, argv);
        }
        return mismatch != null ? mismatch : run.compareKeyspace();
    }

    private static final ScriptCatalog CATALOG = new ScriptCatalog();

    /** A comparison of the real server with {@code sim}, each with a subscriber on every wake-up channel. */
    private static Differential differential(SimRedis sim) {
        for (String source : Workload.sources(CATALOG)) {
            sim.scriptLoad(source); // compiled before the steps, so that no step's time includes LuaJ's compiler
        }
        List<String> simMessages = new ArrayList<>();
        PubSubConnection simSubscriber =
                sim.connectPubSub((channel, message) -> simMessages.add(channel + " " + message));
        for (String channel : Workload.wakeChannels()) {
            simSubscriber.subscribe(channel, false);
            simSubscriber.subscribe(channel, true);
        }
        Differential.Messages simDrain = () -> {
            List<String> out = new ArrayList<>(simMessages);
            simMessages.clear();
            return out;
        };
        Differential.Messages realDrain = () -> {
            try {
                return stripKind(subscriber.drain());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        return new Differential(DifferentialIT::real, simSide(sim), realDrain, simDrain);
    }

    /** "message ch text" and "smessage ch text" as "ch text": the sim's listener does not tell them apart. */
    private static List<String> stripKind(List<String> messages) {
        List<String> out = new ArrayList<>();
        for (String m : messages) {
            out.add(m.substring(m.indexOf(' ') + 1));
        }
        return out;
    }

    private static Object real(String... argv) {
        try {
            return normalizeReal(connection.call(argv));
        } catch (RedisErrorReply e) {
            return new Differential.Err(e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object normalizeReal(Object reply) {
        if (reply instanceof RedisErrorReply e) {
            return new Differential.Err(e.getMessage());
        }
        if (reply instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (Object o : list) {
                out.add(normalizeReal(o));
            }
            return out;
        }
        return reply;
    }

    static Differential.Side simSide(SimRedis sim) {
        return argv -> {
            try {
                return normalizeSim(sim.call(argv));
            } catch (RedisReplyException e) {
                return new Differential.Err(e.getMessage());
            }
        };
    }

    private static Object normalizeSim(Object reply) {
        if (reply instanceof RedisReplyException e) {
            return new Differential.Err(e.getMessage());
        }
        if (reply instanceof StatusReply s) {
            return s.text();
        }
        if (reply instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (Object o : list) {
                out.add(normalizeSim(o));
            }
            return out;
        }
        return reply;
    }
}
