package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.LockClient;
import dev.dlock.shedlock.DlockLockProvider;
import dev.dlock.spring.integration.DlockLockRegistry;
import dev.dlock.testkit.RedisExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * The ShedLock {@code LockProvider} and Spring Integration {@code LockRegistry} beans the starter
 * defines on its {@link LockClient}: there when the library is, backing off for the application's
 * own bean, absent without the library or without a client.
 */
final class DlockIntegrationsAutoConfigurationIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DlockAutoConfiguration.class,
                    DlockShedLockAutoConfiguration.class,
                    DlockLockRegistryAutoConfiguration.class))
            .withPropertyValues(
                    "dlock.command-timeout=2s",
                    "spring.data.redis.host=127.0.0.1",
                    "spring.data.redis.port=" + redis.server().port());

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {
        @Bean
        LockProvider ownProvider() {
            return config -> Optional.empty();
        }

        @Bean
        LockRegistry ownRegistry() {
            return new DefaultLockRegistry();
        }
    }

    @Test
    void withShedLock_aDlockLockProvider_onTheClient_takesLocks() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(LockProvider.class);
            LockProvider provider = context.getBean(LockProvider.class);
            assertThat(provider).isInstanceOf(DlockLockProvider.class);
            SimpleLock lock = provider.lock(
                            new LockConfiguration(Instant.now(), "shed-job", Duration.ofSeconds(30), Duration.ZERO))
                    .orElseThrow();
            assertThat(context.getBean(LockClient.class).lock("shed-job").isLocked())
                    .isTrue();
            lock.unlock();
            assertThat(context.getBean(LockClient.class).lock("shed-job").isLocked())
                    .isFalse();
        });
    }

    @Test
    void withSpringIntegration_aDlockLockRegistry_onTheClient_obtainsLocks() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(LockRegistry.class);
            LockRegistry registry = context.getBean(LockRegistry.class);
            assertThat(registry).isInstanceOf(DlockLockRegistry.class);
            Lock lock = registry.obtain("si-key");
            lock.lock();
            try {
                assertThat(context.getBean(LockClient.class).lock("si-key").isLocked())
                        .isTrue();
            } finally {
                lock.unlock();
            }
        });
    }

    @Test
    void theApplicationsOwnProviderAndRegistry_win() {
        runner.withUserConfiguration(OwnBeans.class).run(context -> {
            assertThat(context).hasSingleBean(LockProvider.class).doesNotHaveBean(DlockLockProvider.class);
            assertThat(context).hasSingleBean(LockRegistry.class).doesNotHaveBean(DlockLockRegistry.class);
            assertThat(context).hasBean("ownProvider").hasBean("ownRegistry");
        });
    }

    @Test
    void withoutShedLock_noProvider_withoutSpringIntegration_noRegistry() {
        runner.withClassLoader(new FilteredClassLoader(LockProvider.class))
                .run(context -> assertThat(context)
                        .hasSingleBean(LockClient.class)
                        .doesNotHaveBean(DlockLockProvider.class)
                        .hasSingleBean(DlockLockRegistry.class));
        runner.withClassLoader(new FilteredClassLoader(LockRegistry.class))
                .run(context -> assertThat(context)
                        .hasSingleBean(LockClient.class)
                        .doesNotHaveBean(DlockLockRegistry.class)
                        .hasSingleBean(DlockLockProvider.class));
        runner.withClassLoader(new FilteredClassLoader(DlockLockProvider.class, DlockLockRegistry.class))
                .run(context -> assertThat(context)
                        .hasSingleBean(LockClient.class)
                        .doesNotHaveBean(LockProvider.class)
                        .doesNotHaveBean(LockRegistry.class));
    }

    @Test
    void withDlockDisabled_neither() {
        runner.withPropertyValues("dlock.enabled=false")
                .run(context -> assertThat(context)
                        .doesNotHaveBean(LockClient.class)
                        .doesNotHaveBean(LockProvider.class)
                        .doesNotHaveBean(LockRegistry.class));
    }
}
