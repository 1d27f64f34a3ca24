package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.http.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A {@code @Locked} controller method whose lock is busy, in a Spring MVC context on a real Redis: 409
 * with {@code Retry-After} and a problem detail, not a 500; off by property.
 */
final class LockBusyProblemIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DlockAutoConfiguration.class,
                    DlockWebMvcAutoConfiguration.class,
                    AopAutoConfiguration.class,
                    WebMvcAutoConfiguration.class,
                    HttpMessageConvertersAutoConfiguration.class,
                    JacksonAutoConfiguration.class))
            .withUserConfiguration(Controllers.class)
            .withPropertyValues("dlock.redis-url=" + redis.server().uri(), "dlock.command-timeout=2s");

    @Test
    void aBusyLockInAController_is409WithRetryAfterAndAProblemDetail() {
        runner.run(context -> {
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
            mvc.perform(post("/orders/7")).andExpect(status().isOk());
            try (Lease held = context.getBean(LockClient.class).lock("order:7").acquire()) {
                mvc.perform(post("/orders/7"))
                        .andExpect(status().isConflict())
                        .andExpect(header().string("Retry-After", "1"))
                        .andExpect(header().string("Content-Type", "application/problem+json"))
                        .andExpect(jsonPath("$.title").value("Lock busy"))
                        .andExpect(jsonPath("$.status").value(409))
                        .andExpect(jsonPath("$.lockName").value("order:7"))
                        .andExpect(jsonPath("$.waitedMillis").value(100))
                        .andExpect(jsonPath("$.detail")
                                .value("lock 'order:7' is busy: another owner held it for the whole wait of 100 ms"));
                assertThat(held.isValid()).isTrue();
            }
        });
    }

    @Test
    void offByProperty_theExceptionReachesTheDispatcher() {
        runner.withPropertyValues("dlock.web.lock-busy-problem=false").run(context -> {
            assertThat(context).doesNotHaveBean(LockBusyProblemHandler.class);
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
            try (Lease held = context.getBean(LockClient.class).lock("order:8").acquire()) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> mvc.perform(post("/orders/8")))
                        .hasRootCauseInstanceOf(dev.dlock.LockBusyException.class);
            }
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class Controllers {
        @Bean
        Orders orders() {
            return new Orders();
        }
    }

    @RestController
    static class Orders {
        @PostMapping("/orders/{id}")
        @Locked(name = "'order:' + #id", waitFor = "100ms")
        public String ship(@PathVariable long id) {
            return "shipped " + id;
        }
    }
}
