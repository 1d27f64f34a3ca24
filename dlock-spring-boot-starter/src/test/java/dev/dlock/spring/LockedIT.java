package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockBusyException;
import dev.dlock.LockClient;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
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
 * {@code @Locked} in two running Spring Boot applications (two lock clients) on one Redis: SKIP, THROW,
 * holdAtLeast, leases, re-entry, release after a throw, a scheduled job, the endpoint and the health.
 */
@ExtendWith(OutputCaptureExtension.class)
final class LockedIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static ConfigurableApplicationContext app;
    private static ConfigurableApplicationContext other;
    private static Jobs jobs;
    private static Jobs otherJobs;
    private static LockClient client;
    private Workers workers;

    @BeforeAll
    static void startApps() {
        int port = redis.server().port();
        app = JobsApp.start(port, "--jobs.lock-name=from-property");
        other = JobsApp.start(port, "--dlock.client-name=other");
        jobs = app.getBean(Jobs.class);
        otherJobs = other.getBean(Jobs.class);
        client = app.getBean(LockClient.class);
    }

    @AfterAll
    static void stopApps() {
        if (other != null) {
            other.close();
        }
        if (app != null) {
            app.close();
        }
    }

    @BeforeEach
    void setUp() {
        workers = new Workers();
        jobs.runs().set(0);
        otherJobs.runs().set(0);
    }

    @AfterEach
    void tearDown() {
        workers.close();
    }

    @Test
    void skip_theSecondCallerDoesNotRunTheMethodWhileTheFirstHolds() throws Exception {
        Workers.Holding<String> first = workers.holding(step -> jobs.skipping("a", step));
        Workers.Step second = Workers.Step.passing();
        assertThat(jobs.skipping("a", second))
                .as("same application, same client")
                .isNull();
        assertThat(otherJobs.skipping("a", second)).as("another application").isNull();
        assertThat(otherJobs.skippingOptional("a")).isEmpty();
        assertThat(second.hasEntered()).isFalse();
        assertThat(jobs.runs().get() + otherJobs.runs().get()).isEqualTo(1);

        assertThat(first.releaseAndJoin()).isEqualTo("ran");
        assertThat(otherJobs.skippingOptional("a")).contains("ran");
    }

    @Test
    void throwOnBusy_throwsLockBusyExceptionNamingTheLockAndTheWait() throws Exception {
        Workers.Holding<String> first = workers.holding(step -> jobs.throwing("b", step));
        Workers.Step second = Workers.Step.passing();
        long start = System.nanoTime();
        assertThatThrownBy(() -> otherJobs.throwing("b", second))
                .isInstanceOfSatisfying(LockBusyException.class, e -> {
                    assertThat(e.lockName()).isEqualTo("throw:b");
                    assertThat(e.waited()).isEqualTo(Duration.ofMillis(300));
                })
                .hasMessage("lock 'throw:b' is busy: another owner held it for the whole wait of 300 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(290));
        assertThatThrownBy(() -> jobs.throwing("b", second)).isInstanceOf(LockBusyException.class);
        assertThat(second.hasEntered()).isFalse();

        assertThat(first.releaseAndJoin()).isEqualTo("ran");
        assertThat(otherJobs.throwing("b", second)).isEqualTo("ran");
    }

    @Test
    void waitFor_waitsForTheHolderToReturn() throws Exception {
        Workers.Holding<String> first = workers.holding(step -> jobs.throwing("w", step));
        Future<String> waiter = workers.start(() -> otherJobs.throwing("w", Workers.Step.passing()));
        Thread.sleep(100);
        assertThat(first.releaseAndJoin()).isEqualTo("ran");
        assertThat(Workers.join(waiter)).isEqualTo("ran");
    }

    private boolean heldOtherThanTicker() {
        return app.getBean(DlockEndpoint.class).locks().held().stream()
                .anyMatch(h -> !h.name().equals("ticker"));
    }

    @Test
    void holdAtLeast_aJobThatReturnsEarlyKeepsTheLockUntilThenAndNoLonger() throws Exception {
        long start = System.nanoTime();
        Long token = jobs.holdingAtLeast("h");
        assertThat(token).isNotNull();
        assertThat(client.lock("hold:h").isLocked()).isTrue();
        assertThat(otherJobs.holdingAtLeast("h"))
                .as("another instance within holdAtLeast")
                .isNull();
        assertThat(app.getBean(DlockEndpoint.class).locks().held())
                .filteredOn(held -> !held.name().equals("ticker"))
                .singleElement()
                .satisfies(held -> {
                    assertThat(held.name()).isEqualTo("hold:h");
                    assertThat(held.fencingToken()).isEqualTo(token);
                    assertThat(held.holdUntil()).isNotNull();
                });

        while (client.lock("hold:h").isLocked()) {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Timing.scaled(Duration.ofSeconds(5)));
            Thread.sleep(20);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        // The hold leaves the endpoint's list when the client sees its lease end (1% + 2 ms before Redis drops the
        // key), through a loss listener on the callback executor: on a loaded host that can come a little after the
        // key is gone, so wait for it, within a bound.
        long until = System.nanoTime() + Timing.scaled(Duration.ofSeconds(2)).toNanos();
        while (heldOtherThanTicker() && System.nanoTime() - until < 0) {
            Thread.sleep(10);
        }
        assertThat(app.getBean(DlockEndpoint.class).locks().held())
                .filteredOn(held -> !held.name().equals("ticker"))
                .isEmpty();
        assertThat(otherJobs.holdingAtLeast("h")).isGreaterThan(token);
    }

    @Test
    void holdAtLeast_onAFixedLease_setsTheKeysTimeToLiveToTheRestOfIt_soTheHoldSurvivesACrash() throws Exception {
        long start = System.nanoTime();
        Long token = jobs.holdingAtLeastOnAFixedLease("h");
        assertThat(token).isNotNull();
        // Redis itself ends the hold: the key's time to live is what is left of holdAtLeast, not of the 20 s lease.
        List<?> keys = (List<?>) redis.server().command("KEYS", "*{hold-fixed:h}");
        assertThat(keys).hasSize(1);
        long ttl = (Long) redis.server().command("PTTL", (String) keys.get(0));
        assertThat(ttl).isPositive().isLessThanOrEqualTo(1500);
        assertThat(otherJobs.holdingAtLeastOnAFixedLease("h"))
                .as("another instance within holdAtLeast")
                .isNull();
        assertThat(app.getBean(DlockEndpoint.class).locks().held())
                .filteredOn(held -> held.name().equals("hold-fixed:h"))
                .singleElement()
                .satisfies(held -> assertThat(held.holdUntil()).isNotNull());

        while (client.lock("hold-fixed:h").isLocked()) {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Timing.scaled(Duration.ofSeconds(5)));
            Thread.sleep(20);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(1450));
        assertThat(otherJobs.holdingAtLeastOnAFixedLease("h")).isGreaterThan(token);
        long deadline = System.nanoTime() + Timing.scaled(Duration.ofSeconds(2)).toNanos();
        while (!app.getBean(DlockEndpoint.class).locks().held().stream()
                .noneMatch(held -> held.name().equals("hold-fixed:h"))) {
            assertThat(System.nanoTime())
                    .as("the ended hold leaves the endpoint")
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void leases_aFixedLeaseTimeIsNotRenewed_theDefaultIsTheClientsRenewedLease() {
        // Upper bounds: the lease times; lower bounds: half of them (what an acquire promises), less slack for a
        // loaded host between the acquire and the method's read.
        assertThat(jobs.fixedLease("f")).isBetween(Duration.ofMillis(500), Duration.ofMillis(2000));
        assertThat(jobs.renewedLease("r")).isBetween(Duration.ofSeconds(10), Duration.ofSeconds(30));
        assertThat(client.lock("fixed:f").isLocked()).isFalse();
        assertThat(client.lock("renewed:r").isLocked()).isFalse();
    }

    @Test
    void aMethodThatThrows_releasesTheLockAndTheExceptionReachesTheCaller() {
        assertThatThrownBy(() -> jobs.failing("x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("failed on purpose");
        assertThat(client.lock("fail:x").isLocked()).isFalse();
        assertThat(LockedContext.currentLease()).isEmpty();
    }

    @Test
    void aLeaseLostWhileTheMethodRuns_isVisibleToTheMethod_loggedAfterIt_andTheResultStillReturned(
            CapturedOutput output) throws Exception {
        assertThat(jobs.outlivingItsLease("o"))
                .as("the lease as the method saw it at its end")
                .isFalse();
        assertThat(output.getOut())
                .contains("Jobs.outlivingItsLease: lock 'outlive:o' (fencing token")
                .contains("was lost while the method ran");
        // The core logs through System.Logger ("dev.dlock"); with no setup it reaches Spring's log (stdout,
        // Logback's format) through Boot's JUL bridge, not JUL's own two-line format on stderr.
        assertThat(output.getOut()).containsPattern("INFO .*dev\\.dlock.*dlock lost lock 'outlive:o'");
        assertThat(output.getErr()).doesNotContain("dlock lost lock 'outlive:o'");
        assertThat(client.lock("outlive:o").isLocked()).isFalse();
        assertThat(app.getBean(DlockEndpoint.class).locks().held())
                .filteredOn(held -> held.name().equals("outlive:o"))
                .isEmpty();
    }

    @Test
    void reentry_aNestedCallOfTheSameNameRunsWithinTheOuterHold() {
        long[] tokens = jobs.reentering("r");
        assertThat(tokens[1]).isEqualTo(tokens[0]);
        assertThat(tokens[2]).isEqualTo(tokens[0]);
        assertThat(client.lock("reenter:r").isLocked()).isFalse();
    }

    @Test
    void lockedContext_outsideALockedMethodThereIsNoLease() {
        assertThat(LockedContext.currentLease()).isEmpty();
        assertThatThrownBy(LockedContext::currentFencingToken)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no @Locked method runs on thread");
    }

    @Test
    void aScheduledJob_runsUnderItsLock() throws Exception {
        JobsApp.Ticker ticker = app.getBean(JobsApp.Ticker.class);
        long deadline = System.nanoTime() + Workers.PATIENCE.toNanos();
        while (ticker.tokens().size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ticker.tokens()).hasSizeGreaterThanOrEqualTo(3).allMatch(token -> token > 0);
    }

    @Test
    void endpoint_listsTheHoldsOfLockedMethodsAndReadsAnyLock() throws Exception {
        Workers.Holding<String> holder = workers.holding(step -> jobs.skipping("e", step));
        try (Lease direct = client.lock("direct").acquire()) {
            DlockEndpoint endpoint = app.getBean(DlockEndpoint.class);
            DlockEndpoint.Locks locks = endpoint.locks();
            assertThat(locks.clientId()).isEqualTo(client.clientId());
            assertThat(locks.held())
                    .as("only the @Locked hold, not the one taken through the API")
                    .filteredOn(held -> !held.name().equals("ticker"))
                    .singleElement()
                    .satisfies(held -> {
                        assertThat(held.name()).isEqualTo("skip:e");
                        assertThat(held.method()).isEqualTo("Jobs.skipping");
                        assertThat(held.valid()).isTrue();
                        assertThat(held.remainingMillis()).isPositive();
                        assertThat(held.holdUntil()).isNull();
                    });
            assertThat(locks.openHolds())
                    .as("every hold of the client by name, the API's included")
                    .containsEntry("skip:e", 1)
                    .containsEntry("direct", 1);
            assertThat(endpoint.lock("skip:e").heldByThisApplication()).isTrue();
            assertThat(endpoint.lock("direct").heldByThisApplication()).isTrue();
            assertThat(endpoint.lock("direct").fencingToken()).isEqualTo(direct.fencingToken());
            assertThat(other.getBean(DlockEndpoint.class).lock("skip:e")).satisfies(status -> {
                assertThat(status.held()).isTrue();
                assertThat(status.heldByThisApplication()).isFalse();
            });
            assertThat(endpoint.lock("free").held()).isFalse();
        } finally {
            holder.releaseAndJoin();
        }
    }

    @Test
    void health_upWhileRedisAnswers_downWithTheExceptionWhenItDoesNot_upAgainAfter() throws InterruptedException {
        HealthEndpoint health = app.getBean(HealthEndpoint.class);
        assertThat(health.healthForPath("dlock").getStatus()).isEqualTo(Status.UP);

        redis.server().stop();
        try {
            Health down = (Health) health.healthForPath("dlock");
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsKey("error");
            assertThat(down.getDetails().get("error").toString())
                    .contains("127.0.0.1:" + redis.server().port());
        } finally {
            redis.server().start();
        }
        long deadline = System.nanoTime() + Workers.PATIENCE.toNanos();
        while (health.healthForPath("dlock").getStatus() != Status.UP && System.nanoTime() < deadline) {
            sleep(50);
        }
        assertThat(health.healthForPath("dlock").getStatus()).isEqualTo(Status.UP);
        assertThat(Optional.ofNullable(jobs.literal())).contains("nightly-report");
    }

    @Test
    void names_spelOverArgumentsByNameAndIndex_root_records_literalsAndPlaceholders() {
        assertThat(jobs.byName(42)).isEqualTo("order:42");
        assertThat(jobs.byIndex(7, "eu")).isEqualTo("order:7:eu");
        assertThat(jobs.byRoot()).isEqualTo("job:byRoot:Jobs");
        assertThat(jobs.byRecord(new Jobs.User("ann", 3))).isEqualTo("user:ann:3");
        assertThat(jobs.literal()).isEqualTo("nightly-report");
        assertThat(jobs.placeholder()).isEqualTo("from-property");
        assertThat(otherJobs.placeholder()).isEqualTo("placeholder-default");
        assertThat(jobs.bare("free-form name")).isEqualTo("free-form name");
        assertThatThrownBy(() -> jobs.bare(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("@Locked on Jobs.bare: the name expression #name yielded null for this call");
    }

    private static void sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }
}
