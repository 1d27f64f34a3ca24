package dev.dlock.spring;

import dev.dlock.LockClient;
import dev.dlock.micrometer.DlockMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With {@code dlock-micrometer} on the class path and a {@link MeterRegistry} bean: a {@link
 * DlockMetrics} listener, which the starter registers with the client it makes (as it does every
 * {@link dev.dlock.LockListener} bean). Not when the application defines its own {@link LockClient}:
 * the starter cannot add a listener to that one, and meters that never move would mislead; such an
 * application builds its client with {@code .listener(new DlockMetrics(registry))}.
 */
@AutoConfiguration(
        before = DlockAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"
        })
@ConditionalOnClass({DlockMetrics.class, MeterRegistry.class, LockClient.class})
@ConditionalOnBooleanProperty(name = "dlock.enabled", matchIfMissing = true)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnMissingBean(LockClient.class)
public class DlockMetricsAutoConfiguration {

    /** Creates the configuration; Spring Boot does. */
    public DlockMetricsAutoConfiguration() {}

    /**
     * The meters of the auto-configured client (<a href="https://github.com/dlock-dev/dlock/blob/main/docs/metrics.md">docs/metrics.md</a>).
     *
     * @param registry the application's registry
     * @return the listener that records them
     */
    @Bean
    @ConditionalOnMissingBean
    public DlockMetrics dlockMetrics(MeterRegistry registry) {
        return new DlockMetrics(registry);
    }
}
