package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/** The mapping of the properties to a Redis URI and a command timeout, without a server. */
final class RedisTargetTest {
    private final DlockProperties dlock = new DlockProperties();
    private final RedisProperties redis = new RedisProperties();

    private String uri() {
        return RedisTarget.of(dlock, redis, null).uri();
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
    void sentinel_mapsToRedisSentinelUri_withTheMastersCredentials_theDatabaseAndTheMaster() {
        redis.setSentinel(new RedisProperties.Sentinel());
        redis.getSentinel().setMaster("my master");
        redis.getSentinel().setNodes(List.of("h1:26379", " h2:26380"));
        redis.setDatabase(2);
        redis.setPassword("p@ss");
        assertThat(uri()).isEqualTo("redis-sentinel://:p%40ss@h1:26379,h2:26380/2#my%20master");
    }

    @Test
    void sentinelWithItsOwnPassword_orTls_orNoMaster_failsNamingTheProperty() {
        redis.setSentinel(new RedisProperties.Sentinel());
        redis.getSentinel().setNodes(List.of("h1:26379"));
        assertThatThrownBy(this::uri)
                .isInstanceOfSatisfying(
                        InvalidConfigurationPropertyValueException.class,
                        e -> assertThat(e.getName()).isEqualTo("spring.data.redis.sentinel.nodes"));
        redis.getSentinel().setMaster("m");
        redis.getSentinel().setPassword("sentinel-secret");
        assertThatThrownBy(this::uri).isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
            assertThat(e.getName()).isEqualTo("spring.data.redis.sentinel.password");
            assertThat(e.getMessage()).doesNotContain("sentinel-secret");
        });
        redis.getSentinel().setPassword(null);
        redis.getSsl().setEnabled(true);
        assertThatThrownBy(this::uri)
                .isInstanceOfSatisfying(
                        InvalidConfigurationPropertyValueException.class,
                        e -> assertThat(e.getName()).isEqualTo("spring.data.redis.ssl.enabled"));
    }

    @Test
    void cluster_mapsToRedisClusterUri_withCredentials() {
        redis.setCluster(new RedisProperties.Cluster());
        redis.getCluster().setNodes(List.of("n1:7000", "n2:7001"));
        redis.setUsername("app");
        redis.setPassword("pw");
        assertThat(uri()).isEqualTo("redis-cluster://app:pw@n1:7000,n2:7001");
    }
}
