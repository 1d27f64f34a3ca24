package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockListener;
import dev.dlock.micrometer.DlockMetrics;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.SentinelSetup;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The auto-configuration in {@link ApplicationContextRunner} contexts against real redis-servers: where
 * the client connects from {@code spring.data.redis.*} and {@code dlock.*}, the options that reach it,
 * backing off, the failures at start (Sentinel, Cluster, an SSL bundle, unusable {@code @Locked}
 * attributes) and the close with the context.
 */
final class DlockAutoConfigurationIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    @RegisterExtension
    static final RedisExtension secured =
            RedisExtension.builder().password("s3cr:t@/").build();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(DlockAutoConfiguration.class, DlockActuatorAutoConfiguration.class))
            .withPropertyValues("dlock.command-timeout=2s");

    private static String port(RedisServer server) {
        return Integer.toString(server.port());
    }

    @Test
    void hostAndPort() {
        runner.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port(redis.server()))
                .run(context -> {
                    assertThat(context).hasSingleBean(LockClient.class);
                    assertThat(context.getBean(LockClient.class).redisUri())
                            .isEqualTo("redis://127.0.0.1:" + port(redis.server()));
                });
    }

    @Test
    void usernamePasswordAndDatabase_reachTheServer() {
        runner.withPropertyValues(
                        "spring.data.redis.host=127.0.0.1",
                        "spring.data.redis.port=" + port(secured.server()),
                        "spring.data.redis.username=default",
                        "spring.data.redis.password=s3cr:t@/",
                        "spring.data.redis.database=3")
                .run(context -> {
                    LockClient client = context.getBean(LockClient.class);
                    assertThat(client.redisUri())
                            .isEqualTo("redis://default:***@127.0.0.1:" + port(secured.server()) + "/3");
                    try (Lease lease = client.lock("in-db-3").acquire()) {
                        assertThat(lease.isValid()).isTrue();
                        assertThat((String) secured.server().command("INFO", "keyspace"))
                                .contains("db3:keys=");
                    }
                });
    }

    @Test
    void url_withItsDatabase_overridesHostAndPort() {
        runner.withPropertyValues(
                        "spring.data.redis.url=redis://127.0.0.1:" + port(redis.server()) + "/2",
                        "spring.data.redis.host=nowhere.invalid",
                        "spring.data.redis.database=5")
                .run(context -> assertThat(context.getBean(LockClient.class).redisUri())
                        .isEqualTo("redis://127.0.0.1:" + port(redis.server()) + "/2"));
    }

    @Test
    void sslEnabled_connectsWithTls() {
        String port = port(redis.server());
        runner.withPropertyValues(
                        "spring.data.redis.url=redis://127.0.0.1:" + port + "/2",
                        "spring.data.redis.ssl.enabled=true",
                        "dlock.command-timeout=1s")
                .run(context -> assertFailedToConnectTo(context, "rediss://127.0.0.1:" + port + "/2"));
        runner.withPropertyValues(
                        "spring.data.redis.host=127.0.0.1",
                        "spring.data.redis.port=" + port,
                        "spring.data.redis.ssl.enabled=true",
                        "dlock.command-timeout=1s")
                .run(context -> assertFailedToConnectTo(context, "rediss://127.0.0.1:" + port));
    }

    /** The server speaks no TLS: the start fails, and the exception names the URI the client tried. */
    private static void assertFailedToConnectTo(AssertableApplicationContext context, String uri) {
        assertThat(context).hasFailed();
        assertThat(findCause(context.getStartupFailure(), LockConnectionException.class))
                .get()
                .extracting(LockConnectionException::redisUri)
                .isEqualTo(uri);
    }

    @Test
    void dlockRedisUrl_overridesSpringDataRedis_andDlockOptionsReachTheClient() {
        runner.withPropertyValues(
                        "dlock.redis-url=redis://127.0.0.1:" + port(redis.server()),
                        "spring.data.redis.port=1",
                        "spring.data.redis.sentinel.master=ignored",
                        "dlock.lease-time=2s",
                        "dlock.key-prefix=orders",
                        "dlock.client-name=orders-locks")
                .run(context -> {
                    LockClient client = context.getBean(LockClient.class);
                    assertThat(client.redisUri()).isEqualTo("redis://127.0.0.1:" + port(redis.server()));
                    try (Lease lease = client.lock("a").acquire()) {
                        assertThat(lease.remaining()).isLessThanOrEqualTo(Duration.ofSeconds(2));
                        assertThat((List<?>) redis.server().command("KEYS", "orders:*"))
                                .isNotEmpty();
                    }
                    assertThat((String) redis.server().command("CLIENT", "LIST"))
                            .contains("name=orders-locks");
                });
    }

    @Test
    void commandTimeout_boundsACommandToAPausedServer() {
        runner.withPropertyValues("dlock.redis-url=" + redis.server().uri(), "dlock.command-timeout=300ms")
                .run(context -> {
                    LockClient client = context.getBean(LockClient.class);
                    redis.server().pause();
                    long start = System.nanoTime();
                    try {
                        assertThatThrownBy(() -> client.lock("a").isLocked())
                                .isInstanceOf(LockConnectionException.class);
                    } finally {
                        redis.server().resume();
                    }
                    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2500));
                });
    }

    @Test
    void sentinelSettings_connectThroughTheSentinels_toTheirMaster() {
        try (SentinelSetup setup =
                SentinelSetup.builder().replicas(1).masterName("locks").start()) {
            String nodes = String.join(
                    ",",
                    setup.sentinels().stream()
                            .map(s -> s.host() + ":" + s.port())
                            .toList());
            runner.withPropertyValues(
                            "spring.data.redis.sentinel.master=locks", "spring.data.redis.sentinel.nodes=" + nodes)
                    .run(context -> {
                        LockClient client = context.getBean(LockClient.class);
                        assertThat(client.redisUri()).isEqualTo("redis-sentinel://" + nodes + "/0#locks");
                        try (Lease lease = client.lock("through-sentinel").acquire()) {
                            assertThat(setup.currentMaster().command("HGET", "dlock:{through-sentinel}", "owner"))
                                    .as("held on the master the sentinels name")
                                    .isNotNull();
                        }
                    });
        }
    }

    @Test
    void cluster_withoutATransportThatSpeaksIt_failsAtStartSayingWhichToAdd() {
        runner.withPropertyValues("spring.data.redis.cluster.nodes=h1:7000,h2:7001")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("redis-cluster://h1:7000,h2:7001")
                        .hasMessageContaining("dlock-lettuce"));
    }

    @Test
    void sslBundle_failsAtStartNamingTheProperty() {
        runner.withPropertyValues("spring.data.redis.ssl.bundle=client")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOfSatisfying(
                                InvalidConfigurationPropertyValueException.class,
                                e -> assertThat(e.getName()).isEqualTo("spring.data.redis.ssl.bundle")));
    }

    @Test
    void aServiceConnectionsDetails_winOverTheProperties() {
        RedisConnectionDetails details = new RedisConnectionDetails() {
            @Override
            public Standalone getStandalone() {
                return Standalone.of("127.0.0.1", redis.server().port());
            }
        };
        runner.withPropertyValues("spring.data.redis.port=1")
                .withBean(RedisConnectionDetails.class, () -> details)
                .run(context -> assertThat(context.getBean(LockClient.class).redisUri())
                        .isEqualTo("redis://127.0.0.1:" + port(redis.server())));
    }

    @Test
    void backsOff_whenTheApplicationDefinesItsOwnLockClient_andLockedUsesThatOne() {
        runner.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.port=1", "management.endpoints.web.exposure.include=dlock")
                .withUserConfiguration(OwnClient.class, JobsBeans.class)
                .run(context -> {
                    assertThat(context).hasSingleBean(LockClient.class);
                    LockClient own = context.getBean(LockClient.class);
                    assertThat(own.clientId()).isEqualTo(OwnClient.client.clientId());
                    assertThat(context.getBean(Jobs.class).renewedLease("own")).isPositive();
                    assertThat(context).hasSingleBean(DlockHealthIndicator.class);
                    assertThat(context.getBean(DlockEndpoint.class).locks().openHolds())
                            .as("the starter does not hear the application's own client")
                            .isNull();
                });
        assertThatThrownBy(() -> OwnClient.client.lock("x"))
                .as("the application's client, closed by its own bean")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void disabled_noClient_lockedMethodsRunWithoutALock_withLocalTokens() {
        runner.withConfiguration(
                        AutoConfigurations.of(AopAutoConfiguration.class, DlockDisabledAutoConfiguration.class))
                .withPropertyValues("dlock.enabled=false")
                .withUserConfiguration(JobsBeans.class)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(LockClient.class);
                    assertThat(context).doesNotHaveBean(DlockHealthIndicator.class);
                    assertThat(context).getBeans(Advisor.class).containsOnlyKeys("dlockUnlockedAdvisor");
                    Jobs jobs = context.getBean(Jobs.class);
                    assertThat(jobs.literal()).as("no lease").isNull();
                    long[] tokens = jobs.reentering("r");
                    assertThat(tokens[1])
                            .as("a nested call: the next local token")
                            .isGreaterThan(tokens[0]);
                    assertThat(tokens[2]).as("the outer call's again").isEqualTo(tokens[0]);
                });
        runner.withConfiguration(
                        AutoConfigurations.of(AopAutoConfiguration.class, DlockDisabledAutoConfiguration.class))
                .withPropertyValues("dlock.redis-url=" + redis.server().uri())
                .run(context -> assertThat(context).getBeans(Advisor.class).doesNotContainKey("dlockUnlockedAdvisor"));
    }

    @Test
    void unusableDlockProperties_failTheStartNamingTheProperty() {
        String url = "dlock.redis-url=" + redis.server().uri();
        String[][] cases = {
            {"dlock.lease-time=50ms", "dlock.lease-time", "dlock.lease-time must be at least 100ms"},
            {"dlock.key-prefix=a{b}", "dlock.key-prefix", "dlock.key-prefix must not contain braces"},
            {"dlock.command-timeout=0s", "dlock.command-timeout", "dlock.command-timeout must be positive"},
            {"dlock.client-name=my app", "dlock.client-name", "dlock.client-name must not be blank or contain spaces"},
            {"dlock.redis-url=http://nowhere", "dlock.redis-url", "redis"},
        };
        for (String[] c : cases) {
            runner.withPropertyValues(url, c[0])
                    .run(context -> assertThat(context)
                            .getFailure()
                            .rootCause()
                            .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                                assertThat(e.getName()).isEqualTo(c[1]);
                                assertThat(e.getMessage()).contains(c[2]);
                            }));
        }
        new ApplicationContextRunner() // without the runner's dlock.command-timeout, which wins over it
                .withConfiguration(AutoConfigurations.of(DlockAutoConfiguration.class))
                .withPropertyValues(
                        "spring.data.redis.host=127.0.0.1",
                        "spring.data.redis.port=" + port(redis.server()),
                        "spring.data.redis.timeout=-1s")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOfSatisfying(
                                InvalidConfigurationPropertyValueException.class,
                                e -> assertThat(e.getName()).isEqualTo("spring.data.redis.timeout")));
    }

    @Test
    void locked_worksWithoutBootsAopAutoConfiguration() {
        runner.withPropertyValues("dlock.redis-url=" + redis.server().uri())
                .withUserConfiguration(JobsBeans.class)
                .run(context -> {
                    assertThat(AopUtils.isAopProxy(context.getBean(Jobs.class))).isTrue();
                    assertThat(context.getBean(Jobs.class).literal()).isEqualTo("nightly-report");
                });
    }

    @Test
    void theApplicationsLockListeners_hearTheClientsEvents() {
        List<String> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        LockListener listener = new LockListener() {
            @Override
            public void holdStarted(String lockName) {
                started.add(lockName);
            }
        };
        runner.withPropertyValues("dlock.redis-url=" + redis.server().uri())
                .withBean(LockListener.class, () -> listener)
                .run(context -> {
                    context.getBean(LockClient.class).lock("heard").acquire().release();
                    assertThat(started).containsExactly("heard");
                });
    }

    @Test
    void withAMeterRegistry_theClientsEventsBecomeMeters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        runner.withConfiguration(AutoConfigurations.of(DlockMetricsAutoConfiguration.class))
                .withPropertyValues("dlock.redis-url=" + redis.server().uri())
                .withBean(MeterRegistry.class, () -> registry)
                .run(context -> {
                    assertThat(context).hasSingleBean(DlockMetrics.class);
                    context.getBean(LockClient.class).lock("metered").acquire().release();
                    assertThat(registry.get(DlockMetrics.ACQUIRE).timer().count())
                            .isEqualTo(1);
                });
        runner.withConfiguration(AutoConfigurations.of(DlockMetricsAutoConfiguration.class))
                .withBean(MeterRegistry.class, () -> registry)
                .withUserConfiguration(OwnClient.class)
                .run(context -> assertThat(context)
                        .as("the application's own client: the starter cannot attach meters to it")
                        .doesNotHaveBean(DlockMetrics.class));
    }

    @Test
    void customizers_adjustTheBuilder() {
        runner.withPropertyValues("dlock.redis-url=" + redis.server().uri())
                .withBean(DlockClientCustomizer.class, () -> builder -> builder.clientName("customized"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat((String) redis.server().command("CLIENT", "LIST"))
                            .contains("name=customized");
                });
    }

    @Test
    void theClientIsClosedWithTheContext_releasingItsLeases() {
        LockClient[] kept = new LockClient[1];
        runner.withPropertyValues("dlock.redis-url=" + redis.server().uri()).run(context -> {
            kept[0] = context.getBean(LockClient.class);
            kept[0].lock("left-held").acquire();
        });
        assertThatThrownBy(() -> kept[0].lock("x")).isInstanceOf(IllegalStateException.class);
        assertThat(redis.server().command("EXISTS", "dlock:{left-held}")).isEqualTo(0L);
    }

    @Test
    void healthCanBeSwitchedOff() {
        runner.withPropertyValues("dlock.redis-url=" + redis.server().uri(), "management.health.dlock.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DlockHealthIndicator.class));
    }

    private static <T extends Throwable> Optional<T> findCause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return Optional.of(type.cast(t));
            }
        }
        return Optional.empty();
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnClient {
        static LockClient client;

        @Bean(destroyMethod = "close")
        LockClient ownLockClient() {
            client = LockClient.connect(redis.server().uri());
            return client;
        }
    }
}
