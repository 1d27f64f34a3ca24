package dev.dlock.spring;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;

/**
 * With {@code dlock.enabled=false}: no lock client, and {@link Locked} methods run without a lock, each
 * call with a token of this JVM's own counter in {@link LockedContext} (so that {@code
 * LockedContext.currentFencingToken()} answers in them). The switch for tests and local runs without
 * Redis; logged once at INFO when the context starts.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "dlock.enabled", havingValue = false)
@Import(DlockAutoConfiguration.AutoProxyRegistrar.class)
public class DlockDisabledAutoConfiguration {
    private static final Log log = LogFactory.getLog(DlockDisabledAutoConfiguration.class);

    /** Creates the configuration; Spring Boot does. */
    public DlockDisabledAutoConfiguration() {}

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static Advisor dlockUnlockedAdvisor() {
        log.info("dlock.enabled=false: no lock client; @Locked methods run without a lock, and"
                + " LockedContext.currentFencingToken() gives them tokens of this JVM's own counter");
        DefaultPointcutAdvisor advisor = new DefaultPointcutAdvisor(
                new AnnotationMatchingPointcut(null, Locked.class, true), new UnlockedInterceptor());
        advisor.setOrder(DlockAutoConfiguration.LOCKED_ADVISOR_ORDER);
        return advisor;
    }
}
