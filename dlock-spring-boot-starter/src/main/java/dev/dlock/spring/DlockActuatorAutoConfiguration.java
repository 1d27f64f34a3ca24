package dev.dlock.spring;

import dev.dlock.LockClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/**
 * With Spring Boot's actuator on the class path: the {@code dlock} health indicator ({@code
 * management.health.dlock.enabled}) and the {@code dlock} endpoint ({@code management.endpoint.dlock.*};
 * expose it over the web with {@code management.endpoints.web.exposure.include}). Both need one
 * {@link LockClient} bean (or a primary one), the starter's or the application's.
 */
@AutoConfiguration(after = DlockAutoConfiguration.class)
@ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class, LockClient.class})
@ConditionalOnBooleanProperty(name = "dlock.enabled", matchIfMissing = true)
@ConditionalOnSingleCandidate(LockClient.class)
public class DlockActuatorAutoConfiguration {

    /** Creates the configuration; Spring Boot does. */
    public DlockActuatorAutoConfiguration() {}

    /**
     * The {@code dlock} health indicator.
     *
     * @param client the lock client
     * @return the indicator
     */
    @Bean
    @ConditionalOnMissingBean(name = "dlockHealthIndicator")
    @ConditionalOnEnabledHealthIndicator("dlock")
    public DlockHealthIndicator dlockHealthIndicator(LockClient client) {
        return new DlockHealthIndicator(client);
    }

    /**
     * The {@code dlock} endpoint.
     *
     * @param client the lock client
     * @param holds the holds taken through {@code @Locked}, when it is on
     * @param clientHolds the open holds of the auto-configured client
     * @return the endpoint
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    public DlockEndpoint dlockEndpoint(
            LockClient client, ObjectProvider<LockedHolds> holds, ObjectProvider<ClientHolds> clientHolds) {
        return new DlockEndpoint(client, holds.getIfAvailable(), clientHolds.getIfAvailable());
    }
}
