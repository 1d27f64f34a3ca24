package dev.dlock.spring;

import dev.dlock.LockClient;
import dev.dlock.LockListener;
import java.util.ArrayList;
import java.util.List;
import org.springframework.aop.Advisor;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Auto-configures a {@link LockClient} from {@code spring.data.redis.*} and {@code dlock.*} (unless
 * the application defines its own), closed with the application context, and runs {@link Locked}
 * methods under their locks. Off with {@code dlock.enabled=false}.
 */
@AutoConfiguration(after = RedisAutoConfiguration.class)
@ConditionalOnClass(LockClient.class)
@ConditionalOnBooleanProperty(name = "dlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties({DlockProperties.class, RedisProperties.class})
@Import(DlockAutoConfiguration.LockedConfiguration.class)
public class DlockAutoConfiguration {

    /**
     * The advisor's order: just outside Spring's own interceptors at their default order ({@code
     * @Transactional}, {@code @Cacheable}, both {@link Ordered#LOWEST_PRECEDENCE}), so that the lock
     * is taken before a transaction begins and released after it ends.
     */
    public static final int LOCKED_ADVISOR_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

    /** Creates the configuration; Spring Boot does. */
    public DlockAutoConfiguration() {}

    /**
     * The lock client: connected (and checked with a {@code PING}) when the context starts, closed
     * with it, which releases every lease it still holds. Logs one INFO line naming the masked URI,
     * the transport and the client id.
     *
     * @param dlock the {@code dlock.*} properties
     * @param redis the {@code spring.data.redis.*} properties
     * @param details connection details of a service connection (Testcontainers, Docker Compose), if any
     * @param listeners the application's {@link LockListener} beans (metrics, monitoring), in their order
     * @param clientHolds counts the client's open holds for the endpoint
     * @param customizers adjust the builder before it connects
     * @return the connected client
     * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException
     *     naming an unusable property
     * @throws IllegalStateException if Redis cannot be reached or refuses the credentials (Spring Boot
     *     reports it naming the URI and the property to fix)
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public LockClient dlockClient(
            DlockProperties dlock,
            RedisProperties redis,
            ObjectProvider<RedisConnectionDetails> details,
            ObjectProvider<LockListener> listeners,
            ClientHolds clientHolds,
            ObjectProvider<DlockClientCustomizer> customizers) {
        List<LockListener> all = new ArrayList<>(listeners.orderedStream().toList());
        all.add(clientHolds.attach());
        return StarterClient.connect(
                dlock,
                redis,
                details.getIfUnique(),
                all,
                customizers.orderedStream().toList());
    }

    /**
     * The open holds of the auto-configured client by name, for the {@code dlock} endpoint.
     *
     * @return the counter, registered with the client when the starter makes it
     */
    @Bean
    ClientHolds dlockClientHolds() {
        return new ClientHolds();
    }

    /** {@link Locked}: the advisor, its interceptor, the attribute parser and the holds. */
    @Configuration(proxyBeanMethods = false)
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @Import(AutoProxyRegistrar.class)
    static class LockedConfiguration {

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static LockedMethods dlockLockedMethods(Environment environment, BeanFactory beanFactory) {
            return new LockedMethods(environment, beanFactory, new DefaultParameterNameDiscoverer());
        }

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static LockedMethodsValidator dlockLockedMethodsValidator(ObjectProvider<LockedMethods> methods) {
            return new LockedMethodsValidator(methods);
        }

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static LockedHolds dlockLockedHolds() {
            return new LockedHolds();
        }

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static Advisor dlockLockedAdvisor(
                ObjectProvider<LockClient> clients, LockedMethods methods, LockedHolds holds) {
            DefaultPointcutAdvisor advisor = new DefaultPointcutAdvisor(
                    new AnnotationMatchingPointcut(null, Locked.class, true),
                    new LockedInterceptor(clients, methods, holds));
            advisor.setOrder(LOCKED_ADVISOR_ORDER);
            return advisor;
        }
    }

    /**
     * Makes sure an auto-proxy creator exists, as {@code @EnableTransactionManagement} does: Boot's own
     * is missing when {@code spring.aop.auto=false}, or with {@code spring.aop.proxy-target-class=false}
     * and no AspectJ, and {@code @Locked} would then be ignored without a word.
     */
    static class AutoProxyRegistrar implements ImportBeanDefinitionRegistrar {
        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }
    }
}
