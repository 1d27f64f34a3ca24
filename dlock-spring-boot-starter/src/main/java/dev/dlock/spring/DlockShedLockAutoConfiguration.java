package dev.dlock.spring;

import dev.dlock.LockClient;
import dev.dlock.shedlock.DlockLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With ShedLock ({@code shedlock-core}) and {@code dlock-shedlock} on the class path: a {@link
 * DlockLockProvider} on the {@link LockClient} bean, so {@code @SchedulerLock} jobs run on dlock
 * locks, unless the application defines its own {@link LockProvider}. Only {@code shedlock-core} is
 * needed here; {@code shedlock-spring} (for {@code @EnableSchedulerLock}) is the application's.
 */
@AutoConfiguration(after = DlockAutoConfiguration.class)
@ConditionalOnClass({LockProvider.class, DlockLockProvider.class, LockClient.class})
@ConditionalOnBooleanProperty(name = "dlock.enabled", matchIfMissing = true)
@ConditionalOnBean(LockClient.class)
public class DlockShedLockAutoConfiguration {

    /** Creates the configuration; Spring Boot does. */
    public DlockShedLockAutoConfiguration() {}

    /**
     * ShedLock's lock provider on dlock's fixed leases ({@code dlock-shedlock/README.md}).
     *
     * @param client the lock client
     * @return the provider
     */
    @Bean
    @ConditionalOnMissingBean(LockProvider.class)
    public DlockLockProvider dlockLockProvider(LockClient client) {
        return new DlockLockProvider(client);
    }
}
