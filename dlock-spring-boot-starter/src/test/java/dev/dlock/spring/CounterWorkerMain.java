package dev.dlock.spring;

import dev.dlock.Lease;
import dev.dlock.testkit.RespConnection;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application in its own JVM whose threads call a {@code @Locked} method that enters and
 * leaves a fenced counter in Redis; {@link LockedAcrossJvmsIT} starts two. Prints {@code READY}, waits
 * for {@code GO} on stdin, then {@code DONE errors=N} (each error, and each hung thread, on an {@code
 * ERROR} line before it), and exits 0 only without errors.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class CounterWorkerMain {
    /** Enters: counts who is inside (and the overlaps), checks the token against the last, counts the run. */
    static final String ENTER = "local inside = redis.call('INCR', KEYS[1])\n"
            + "if inside > 1 then redis.call('INCR', KEYS[2]) end\n"
            + "local last = tonumber(redis.call('GET', KEYS[3]) or '-1')\n"
            + "if tonumber(ARGV[1]) <= last then redis.call('INCR', KEYS[4])\n"
            + "else redis.call('SET', KEYS[3], ARGV[1]) end\n"
            + "redis.call('INCR', KEYS[5])\n"
            + "return inside";

    static final String INSIDE = "counter:inside";
    static final String OVERLAPS = "counter:overlaps";
    static final String FENCE = "counter:fence";
    static final String STALE = "counter:stale";
    static final String RUNS = "counter:runs";

    @Bean
    Counter counter() {
        return new Counter();
    }

    /**
     * Entry point.
     *
     * @param args Redis port, threads, calls per thread, {@code locked} or {@code unlocked}
     * @throws Exception if the application cannot start
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        int calls = Integer.parseInt(args[2]);
        boolean locked = args[3].equals("locked");
        ConfigurableApplicationContext context = new SpringApplicationBuilder(CounterWorkerMain.class)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .run(
                        "--spring.data.redis.host=127.0.0.1",
                        "--spring.data.redis.port=" + port,
                        "--dlock.enabled=" + locked,
                        "--logging.level.root=WARN");
        Counter counter = context.getBean(Counter.class);
        System.out.println("READY");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (!"GO".equals(in.readLine())) {
            System.out.println("DONE errors=1 (no GO)");
            System.exit(1);
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                try (RespConnection redis = RespConnection.open("127.0.0.1", port, null, Duration.ofSeconds(10))) {
                    for (int i = 0; i < calls; i++) {
                        counter.enterAndLeave("shared", redis);
                    }
                }
                return null;
            }));
        }
        int errors = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        for (Future<?> future : futures) {
            try {
                future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                errors++;
                System.out.println("ERROR " + e.getCause());
                e.getCause().printStackTrace();
            } catch (TimeoutException e) {
                errors++;
                System.out.println("ERROR a worker thread hung");
            }
        }
        pool.shutdownNow();
        System.out.println("DONE errors=" + errors);
        context.close();
        System.exit(errors == 0 ? 0 : 1);
    }

    /** The method the JVMs must never run at once. */
    public static class Counter {
        @Locked(name = "'counter:' + #shard", waitFor = "60s")
        public void enterAndLeave(String shard, RespConnection redis) throws Exception {
            long token = LockedContext.currentLease().map(Lease::fencingToken).orElse(0L);
            redis.call("EVAL", ENTER, "5", INSIDE, OVERLAPS, FENCE, STALE, RUNS, Long.toString(token));
            Thread.sleep(2);
            redis.call("DECR", INSIDE);
        }
    }
}
