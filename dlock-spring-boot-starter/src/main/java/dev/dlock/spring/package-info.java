/**
 * Spring Boot auto-configuration for dlock: a {@link dev.dlock.LockClient} from {@code
 * spring.data.redis.*} and {@code dlock.*}, {@link dev.dlock.spring.Locked} methods, the {@code dlock}
 * health indicator and actuator endpoint. See <a href="https://github.com/dlock-dev/dlock/blob/main/docs/spring-boot.md">docs/spring-boot.md</a>.
 */
package dev.dlock.spring;
