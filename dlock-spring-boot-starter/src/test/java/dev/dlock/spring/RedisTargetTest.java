package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;

/** The mapping of the properties to a Redis URI and a command timeout, without a server. */
final class RedisTargetTest {
    private final DlockProperties dlock = new DlockProperties();
    private final RedisProperties redis = new RedisProperties();

    private String uri() {
        return RedisTarget.uri(dlock, redis, null);
    }

    @Test
    void defaults_areBootsLocalhost6379() {
        assertThat(uri()).isEqualTo("redis://localhost:6379");
    }

    @Test
    void credentialsArePercentEncoded_ipv6HostsBracketed_database0Omitted() {
        redis.setHost("::1");
        redis.setUsername("app user");
        redis.setPassword("p@ss:w/rd+%");
        assertThat(uri()).isEqualTo("redis://app%20user:p%40ss%3Aw%2Frd%2B%25@[::1]:6379");
    }

    @Test
    void aUsernameWithoutAPassword_sendsNoCredentials() {
        redis.setUsername("app");
        assertThat(uri()).isEqualTo("redis://localhost:6379");
    }

    @Test
    void ssl_turnsUrlsAndHostsIntoRediss() {
        redis.getSsl().setEnabled(true);
        redis.setPort(6380);
        redis.setDatabase(4);
        assertThat(uri()).isEqualTo("rediss://localhost:6380/4");
        redis.setUrl("redis://:pw@cache:6390/1");
        assertThat(uri()).isEqualTo("rediss://:pw@cache:6390/1");
    }

    @Test
    void aUrlIsTakenAsItIs() {
        redis.setUrl(" rediss://user:pw@cache:6390/1 ");
        redis.setDatabase(5);
        assertThat(uri()).isEqualTo("rediss://user:pw@cache:6390/1");
    }

    @Test
    void dlockRedisUrl_winsOverEverything() {
        redis.setUrl("redis://cache:6390");
        redis.setTimeout(Duration.ofSeconds(9));
        dlock.setRedisUrl("redis://locks:6379/2");
        assertThat(uri()).isEqualTo("redis://locks:6379/2");
        assertThat(RedisTarget.commandTimeout(dlock, redis))
                .as("spring.data.redis is not read")
                .isNull();
    }

    @Test
    void commandTimeout_dlockThenSpringDataRedisThenTheClientsDefault() {
        assertThat(RedisTarget.commandTimeout(dlock, redis)).isNull();
        redis.setTimeout(Duration.ofSeconds(9));
        assertThat(RedisTarget.commandTimeout(dlock, redis)).isEqualTo(Duration.ofSeconds(9));
        dlock.setCommandTimeout(Duration.ofMillis(700));
        assertThat(RedisTarget.commandTimeout(dlock, redis)).isEqualTo(Duration.ofMillis(700));
    }

    @Test
    void sentinelUri_listsTheSentinelsTheDatabaseAndTheMaster() {
        assertThat(RedisTarget.sentinelUri(List.of("h1:26379", "h2:26380"), 2, "mymaster"))
                .isEqualTo("redis-sentinel://h1:26379,h2:26380/2#mymaster");
    }
}
