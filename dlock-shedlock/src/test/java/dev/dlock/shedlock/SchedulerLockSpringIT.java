package dev.dlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.LockClient;
import dev.dlock.resp.RespTransportFactory;
import dev.dlock.testkit.RedisExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Two Spring contexts, standing for two nodes, schedule the same {@code @SchedulerLock} job every
 * second with ShedLock's own Spring integration on {@link DlockLockProvider}: each second it runs
 * once, on one of them.
 */
final class SchedulerLockSpringIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    /** One run of the job: which node, and when it started and ended (wall clock, ms). */
    record Run(String node, long start, long end) {}

    static final Queue<Run> RUNS = new ConcurrentLinkedQueue<>();
    static final Queue<Throwable> FAILURES = new ConcurrentLinkedQueue<>();
    static final AtomicInteger SKIPPED = new AtomicInteger();

    /** The job: runs 400 ms, so the other node's trigger of the same second finds it locked. */
    public static class ReportJob {
        private final String node;

        public ReportJob(String node) {
            this.node = node;
        }

        @Scheduled(cron = "* * * * * *")
        @SchedulerLock(name = "report", lockAtMostFor = "PT5S")
        public void run() {
            try {
                LockAssert.assertLocked(); // ShedLock's check that the call went through the lock
                long start = System.currentTimeMillis();
                Thread.sleep(400);
                RUNS.add(new Run(node, start, System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the context is closing: this run does not count
            } catch (Throwable t) {
                FAILURES.add(t);
            }
        }
    }

    @Configuration
    @EnableScheduling
    @EnableSchedulerLock(defaultLockAtMostFor = "PT10S")
    static class NodeConfig {
        @Bean
        LockProvider lockProvider(LockClient client) {
            DlockLockProvider provider = new DlockLockProvider(client);
            return config -> {
                var lock = provider.lock(config);
                if (lock.isEmpty()) {
                    SKIPPED.incrementAndGet(); // the other node's trigger of the same second
                }
                return lock;
            };
        }

        @Bean
        ReportJob reportJob(String nodeName) {
            return new ReportJob(nodeName);
        }
    }

    private static AnnotationConfigApplicationContext node(String name, LockClient client) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.getBeanFactory().registerSingleton("lockClient", client);
        context.getBeanFactory().registerSingleton("nodeName", name);
        context.register(NodeConfig.class);
        context.refresh();
        return context;
    }

    private static LockClient client() {
        return LockClient.builder()
                .redisUri(redis.server().uri())
                .transport(new RespTransportFactory())
                .build();
    }

    @Test
    void twoNodes_runTheScheduledJobOncePerPeriod() throws Exception {
        RUNS.clear();
        FAILURES.clear();
        SKIPPED.set(0);
        try (LockClient clientA = client();
                LockClient clientB = client()) {
            try (AnnotationConfigApplicationContext a = node("a", clientA);
                    AnnotationConfigApplicationContext b = node("b", clientB)) {
                Thread.sleep(5_500);
            }
        }
        assertThat(FAILURES).isEmpty();
        List<Run> runs = new ArrayList<>(RUNS);
        runs.sort((x, y) -> Long.compare(x.start(), y.start()));
        assertThat(runs).as("about one run per second for five seconds").hasSizeGreaterThanOrEqualTo(4);
        for (int i = 1; i < runs.size(); i++) {
            assertThat(runs.get(i).start())
                    .as("run %s starts after run %s ended: never two at once", runs.get(i), runs.get(i - 1))
                    .isGreaterThanOrEqualTo(runs.get(i - 1).end());
        }
        assertThat(SKIPPED.get())
                .as("the other node's triggers found the lock held")
                .isGreaterThanOrEqualTo(3);
        Map<Long, List<String>> bySecond = runs.stream()
                .collect(Collectors.groupingBy(
                        r -> r.start() / 1000, Collectors.mapping(Run::node, Collectors.toList())));
        assertThat(bySecond.values())
                .as("one run per second, on one node")
                .allSatisfy(nodes -> assertThat(nodes).hasSize(1));
    }
}
