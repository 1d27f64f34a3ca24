package dev.dlock.spring;

import dev.dlock.LockClient;
import dev.dlock.spring.integration.DlockLockRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * With Spring Integration and {@code dlock-spring-integration} on the class path: a {@link
 * DlockLockRegistry} on the {@link LockClient} bean (no registry key: lock names are the keys), for
 * leader election and locked message handling, unless the application defines its own {@link
 * LockRegistry}.
 */
@AutoConfiguration(after = DlockAutoConfiguration.class)
@ConditionalOnClass({LockRegistry.class, DlockLockRegistry.class, LockClient.class})
@ConditionalOnBooleanProperty(name = "dlock.enabled", matchIfMissing = true)
@ConditionalOnBean(LockClient.class)
public class DlockLockRegistryAutoConfiguration {

    /** Creates the configuration; Spring Boot does. */
    public DlockLockRegistryAutoConfiguration() {}

    /**
     * Spring Integration's lock registry on dlock ({@code dlock-spring-integration/README.md}).
     *
     * @param client the lock client
     * @return the registry
     */
    @Bean
    @ConditionalOnMissingBean(LockRegistry.class)
    public DlockLockRegistry dlockLockRegistry(LockClient client) {
        return new DlockLockRegistry(client);
    }
}
