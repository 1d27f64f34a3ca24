package dev.dlock.spring;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The {@link Jobs} bean and the second bean it calls, for the test applications and contexts. */
@Configuration(proxyBeanMethods = false)
class JobsBeans {
    @Bean
    Jobs.Inner inner() {
        return new Jobs.Inner();
    }

    @Bean
    Jobs jobs(Jobs.Inner inner) {
        return new Jobs(inner);
    }
}
