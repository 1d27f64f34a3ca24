package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockConnectionException;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.Timing;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What an operator meets, in running Spring Boot applications against real redis-servers: the startup
 * line, the start without Redis (Boot's failure report), Redis going away while the application runs
 * (health and {@code @Locked} told within about a second), a busy scheduled job on the default
 * {@code onBusy} (skipped quietly), and {@code dlock.enabled=false}.
 */
@ExtendWith(OutputCaptureExtension.class)
final class StarterOperationsIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static String redisUrl() {
        return "--dlock.redis-url=redis://127.0.0.1:" + redis.server().port();
    }

    @Test
    void start_logsOneInfoLineWithTheMaskedUriTheTransportAndTheClientId(CapturedOutput output) {
        try (ConfigurableApplicationContext app = BusyJobApp.start(
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redis.server().port(),
                "--dlock.client-name=orders-locks")) {
            String clientId = app.getBean(dev.dlock.LockClient.class).clientId();
            assertThat(output.getOut())
                    .containsOnlyOnce("dlock connected to redis://127.0.0.1:"
                            + redis.server().port()
                            + " (from spring.data.redis.host and .port) through dlock-resp"
                            + " (dev.dlock.resp.RespTransportFactory); client id " + clientId
                            + ", client name orders-locks");
        }
    }

    @Test
    void startWithoutRedis_bootReportsTheMaskedUriAndWhatToSet(CapturedOutput output) throws IOException {
        int port = freePort();
        assertThatThrownBy(() -> BusyJobApp.start("--dlock.redis-url=redis://:s3cret@127.0.0.1:" + port))
                .hasRootCauseInstanceOf(java.net.ConnectException.class);
        String out = output.getOut() + output.getErr();
        assertThat(out)
                .contains("APPLICATION FAILED TO START")
                .contains("The dlock lock client could not connect to Redis at redis://:***@127.0.0.1:" + port
                        + " (from dlock.redis-url): cannot connect to Redis")
                .contains("Action:")
                .contains("point dlock.redis-url at the Redis of the locks")
                .contains("set dlock.enabled=false")
                .doesNotContain("s3cret");
    }

    @Test
    void aBadProperty_bootReportsThePropertyByItsName(CapturedOutput output) {
        assertThatThrownBy(() -> BusyJobApp.start(redisUrl(), "--dlock.lease-time=50ms"))
                .hasMessageContaining("dlock.lease-time");
        assertThat(output.getOut() + output.getErr())
                .contains("APPLICATION FAILED TO START")
                .contains("Invalid value '50ms' for configuration property 'dlock.lease-time'")
                .contains("dlock.lease-time must be at least 100ms")
                .doesNotContain("leaseTime must");
    }

    @Test
    void redisGone_healthIsDownAndLockedFails_withinAboutASecond_notTheCommandTimeout() throws Exception {
        try (ConfigurableApplicationContext app = BusyJobApp.start(
                redisUrl(), "--dlock.command-timeout=5s", "--management.endpoint.health.show-details=always")) {
            HealthEndpoint health = app.getBean(HealthEndpoint.class);
            Jobs jobs = app.getBean(Jobs.class);
            assertThat(health.healthForPath("dlock").getStatus()).isEqualTo(Status.UP);
            redis.server().stop();
            try {
                for (int i = 0; i < 3; i++) {
                    long start = System.nanoTime();
                    Health down = (Health) health.healthForPath("dlock");
                    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                    if (i > 0) { // the first call may have gone out on the connection just before it broke
                        assertThat(down.getDetails().get("error").toString()).contains("not connected to Redis");
                    }
                    assertThat(Duration.ofNanos(System.nanoTime() - start))
                            .as("health call %d", i)
                            .isLessThan(Timing.scaled(Duration.ofMillis(1500)));
                }
                long start = System.nanoTime();
                assertThatThrownBy(() -> jobs.literal())
                        .isInstanceOf(LockConnectionException.class)
                        .hasMessageContaining("not connected to Redis");
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .isLessThan(Timing.scaled(Duration.ofMillis(1500)));
            } finally {
                redis.server().start();
            }
            long deadline = System.nanoTime() + Workers.PATIENCE.toNanos();
            while (health.healthForPath("dlock").getStatus() != Status.UP && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(health.healthForPath("dlock").getStatus()).isEqualTo(Status.UP);
            assertThat(jobs.literal()).isEqualTo("nightly-report");
        }
    }

    @Test
    void aBusyScheduledJob_onTheDefaultOnBusy_isSkippedQuietly_oneInfoLinePerApplication(CapturedOutput output)
            throws Exception {
        try (ConfigurableApplicationContext one = BusyJobApp.start(redisUrl(), "--dlock.client-name=one");
                ConfigurableApplicationContext two = BusyJobApp.start(redisUrl(), "--dlock.client-name=two")) {
            BusyJobApp.BusyJob jobOne = one.getBean(BusyJobApp.BusyJob.class);
            BusyJobApp.BusyJob jobTwo = two.getBean(BusyJobApp.BusyJob.class);
            long deadline = System.nanoTime() + Workers.PATIENCE.toNanos();
            while (count(output.getOut(), "BusyJob.run skipped: lock 'busy-job' is busy") < 1
                    || jobOne.runs().get() + jobTwo.runs().get() < 4) {
                assertThat(System.nanoTime()).as("a skip and four runs").isLessThan(deadline);
                Thread.sleep(50);
            }
            Thread.sleep(500); // more rounds, each busy for one of the two
        }
        String out = output.getOut() + output.getErr();
        assertThat(out)
                .doesNotContain("Unexpected error occurred in scheduled task")
                .doesNotContain("LockBusyException");
        assertThat(count(out, "BusyJob.run skipped: lock 'busy-job' is busy"))
                .as("one INFO line per application, the later skips at DEBUG")
                .isBetween(1, 2);
    }

    @Test
    void disabled_lockedMethodsRunUnlocked_andTheFencingTokenComesFromALocalCounter(CapturedOutput output) {
        try (ConfigurableApplicationContext app =
                BusyJobApp.start("--dlock.enabled=false", "--spring.data.redis.port=1")) {
            Jobs jobs = app.getBean(Jobs.class);
            Long first = jobs.holdingAtLeast("d");
            Long second = jobs.holdingAtLeast("d");
            assertThat(first).isPositive();
            assertThat(second).isGreaterThan(first);
            assertThat(jobs.literal()).as("no lease, so no lock name").isNull();
            assertThat(app.getBeansOfType(dev.dlock.LockClient.class)).isEmpty();
            assertThat(output.getOut())
                    .contains("dlock.enabled=false: no lock client; @Locked methods run without a lock");
        }
        assertThat(output.getOut() + output.getErr()).doesNotContain("no @Locked method runs on thread");
    }

    private static int count(String text, String part) {
        Matcher m = Pattern.compile(Pattern.quote(part)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
