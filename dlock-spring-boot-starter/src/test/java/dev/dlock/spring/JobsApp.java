package dev.dlock.spring;

import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/** A Spring Boot application with {@link Jobs} and a scheduled {@code @Locked} job, started by the tests. */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableScheduling
@Import(JobsBeans.class)
public class JobsApp {

    @Bean
    Ticker ticker() {
        return new Ticker();
    }

    /** Starts the application against the Redis on {@code port}, with extra {@code --key=value} arguments. */
    static ConfigurableApplicationContext start(int port, String... args) {
        String[] all = new String[args.length + 5];
        all[0] = "--spring.data.redis.host=127.0.0.1";
        all[1] = "--spring.data.redis.port=" + port;
        all[2] = "--dlock.command-timeout=1s";
        all[3] = "--management.endpoint.health.show-details=always";
        all[4] = "--management.endpoints.web.exposure.include=health,dlock";
        System.arraycopy(args, 0, all, 5, args.length);
        return new SpringApplicationBuilder(JobsApp.class)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .run(all);
    }

    /** A scheduled job that records the fencing token it ran with. */
    public static class Ticker {
        private final CopyOnWriteArrayList<Long> tokens = new CopyOnWriteArrayList<>();

        public CopyOnWriteArrayList<Long> tokens() {
            return tokens;
        }

        @Scheduled(fixedDelay = 200)
        @Locked(name = "ticker", onBusy = Locked.OnBusy.SKIP)
        public void tick() {
            tokens.add(LockedContext.currentFencingToken());
        }
    }
}
