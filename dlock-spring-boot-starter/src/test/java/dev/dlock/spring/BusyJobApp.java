package dev.dlock.spring;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * A Spring Boot application with one scheduled {@code @Locked} job on the default {@code onBusy}, which
 * holds its lock longer than its schedule's delay, and the {@link Jobs} bean; started by the tests with
 * their own {@code --key=value} arguments only.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableScheduling
@Import(JobsBeans.class)
public class BusyJobApp {

    @Bean
    BusyJob busyJob() {
        return new BusyJob();
    }

    static ConfigurableApplicationContext start(String... args) {
        return new SpringApplicationBuilder(BusyJobApp.class)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .run(args);
    }

    /** Runs every 50 ms and holds the lock for 300 ms, so that another instance finds it busy. */
    public static class BusyJob {
        private final AtomicInteger runs = new AtomicInteger();

        public AtomicInteger runs() {
            return runs;
        }

        @Scheduled(fixedDelay = 50, initialDelay = 50)
        @Locked(name = "busy-job")
        public void run() throws InterruptedException {
            runs.incrementAndGet();
            Thread.sleep(300);
        }
    }
}
