/**
 * Spring Boot auto-configuration for dlock: a {@link dev.dlock.LockClient} from {@code
 * spring.data.redis.*} and {@code dlock.*}, {@link dev.dlock.spring.Locked} methods, the {@code dlock}
 * health indicator and actuator endpoint. See {@code docs/spring-boot.md}.
 */
package dev.dlock.spring;
