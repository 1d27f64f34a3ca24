package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** status, list and release --force against locks held by an in-test client; JSON shapes of docs/cli.md. */
final class AdminIT {
    @RegisterExtension
    static final LockServer redis = new LockServer();

    @TempDir
    Path dir;

    private static LockClient client() {
        return LockClient.builder()
                .redisUri(redis.uri())
                .leaseTime(Duration.ofSeconds(20))
                .build();
    }

    @Test
    void status_whenFree_exits1WithDocumentedJson() {
        Cli status = Cli.run("status", "--redis", redis.uri(), "free-one", "--json");
        assertThat(status.exitCode()).as(status.toString()).isEqualTo(1);
        Map<String, Object> json = StrictJson.object(status.stdout());
        assertThat(json)
                .containsOnlyKeys(
                        "name",
                        "held",
                        "holder",
                        "remainingMillis",
                        "fencingToken",
                        "waiters",
                        "kind",
                        "capacity",
                        "holders",
                        "queue");
        assertThat(json)
                .containsEntry("name", "free-one")
                .containsEntry("held", false)
                .containsEntry("holder", null)
                .containsEntry("remainingMillis", 0L)
                .containsEntry("fencingToken", 0L)
                .containsEntry("waiters", 0L);
    }

    @Test
    void status_whenHeld_exits0WithHolderTtlTokenAndWaiters() {
        try (LockClient holder = client();
                LockClient waiter = client()) {
            Lease lease = holder.lock("held-one").acquire();
            var waiting = waiter.lock("held-one").acquireAsync(Duration.ofSeconds(60));
            Cli.await("a waiter queued for a hand-off", Duration.ofSeconds(10), () -> redis.queued("held-one") == 1L);

            Cli status = Cli.run("status", "--redis", redis.uri(), "held-one", "--json");
            assertThat(status.exitCode()).as(status.toString()).isZero();
            Map<String, Object> json = StrictJson.object(status.stdout());
            assertThat(json)
                    .containsEntry("name", "held-one")
                    .containsEntry("held", true)
                    .containsEntry("holder", redis.owner("held-one"))
                    .containsEntry("fencingToken", lease.fencingToken())
                    .containsEntry("waiters", 1L);
            assertThat((Long) json.get("remainingMillis")).isBetween(1L, 20_000L);

            Cli text = Cli.run("status", "--redis", redis.uri(), "held-one");
            assertThat(text.exitCode()).isZero();
            assertThat(text.stdout()).contains("is held", (String) json.get("holder"), "waiters:       1");
            waiting.cancel(true);
            lease.release();
        }
    }

    @Test
    void list_showsOnlyHeldLocksMatchingThePattern_withDocumentedJson() {
        try (LockClient holder = client()) {
            Lease a1 = holder.lock("app-1").acquire();
            Lease a2 = holder.lock("app-2").acquire();
            Lease other = holder.lock("other").acquire();
            holder.lock("app-3").acquire().release(); // free, with a fencing key left behind

            Cli list = Cli.run("list", "--redis", redis.uri(), "app-*", "--json");
            assertThat(list.exitCode()).as(list.toString()).isZero();
            Map<String, Object> json = StrictJson.object(list.stdout());
            assertThat(json).containsOnlyKeys("pattern", "count", "locks");
            assertThat(json).containsEntry("pattern", "app-*").containsEntry("count", 2L);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> locks = (List<Map<String, Object>>) json.get("locks");
            assertThat(locks).extracting(l -> l.get("name")).containsExactly("app-1", "app-2");
            assertThat(locks.get(0))
                    .containsOnlyKeys(
                            "name",
                            "held",
                            "holder",
                            "remainingMillis",
                            "fencingToken",
                            "waiters",
                            "kind",
                            "capacity",
                            "holders",
                            "queue")
                    .containsEntry("held", true)
                    .containsEntry("fencingToken", a1.fencingToken());

            Cli all = Cli.run("list", "--redis", redis.uri());
            assertThat(all.stdout()).contains("app-1", "app-2", "other").doesNotContain("app-3");
            a1.release();
            a2.release();
            other.release();
        }
    }

    @Test
    void releaseForce_deletesStuckLock_printsWhatItRemoved_andWakesWaiters() throws Exception {
        Path started = dir.resolve("started");
        try (LockClient holder = client();
                Cli waiter = Cli.start(
                        "run",
                        "--redis",
                        redis.uri(),
                        "--name",
                        "stuck",
                        "--wait",
                        "60s",
                        "--",
                        "touch",
                        started.toString())) {
            Lease lease = holder.lock("stuck").acquire(); // lease time 20 s, renewed: stuck unless forced
            String owner = redis.owner("stuck");
            Cli.await("the waiter queued for a hand-off", Duration.ofSeconds(30), () -> redis.queued("stuck") == 1L);

            Cli release = Cli.run("release", "--redis", redis.uri(), "--force", "stuck");
            assertThat(release.exitCode()).as(release.toString()).isZero();
            assertThat(release.stdout())
                    .contains(
                            "removed lock 'stuck'",
                            owner,
                            "fencing token " + lease.fencingToken(),
                            "handed it to the next queued waiter");

            // Handed over by the forced release, not by the 20 s expiry (nor the holder's release: it still runs).
            Cli.await("the waiter's child to run", Duration.ofSeconds(10), () -> Files.exists(started));
            assertThat(waiter.waitFor(Duration.ofSeconds(30))).isZero();
            Cli.await("the holder to notice the loss", Duration.ofSeconds(30), () -> !lease.isValid());
        }
    }

    @Test
    void releaseForceJson_printsWhatItRemovedAsDocumented() {
        try (LockClient holder = client()) {
            Lease lease = holder.lock("stuck-json").acquire();
            String owner = redis.owner("stuck-json");

            Cli release = Cli.run("release", "--redis", redis.uri(), "--force", "stuck-json", "--json");
            assertThat(release.exitCode()).as(release.toString()).isZero();
            assertThat(release.stdout().lines()).as(release.toString()).hasSize(1);
            Map<String, Object> json = StrictJson.object(release.stdout());
            assertThat(json).containsOnlyKeys("name", "removed", "handedOver", "lock");
            assertThat(json)
                    .containsEntry("name", "stuck-json")
                    .containsEntry("removed", true)
                    .containsEntry("handedOver", false);
            @SuppressWarnings("unchecked")
            Map<String, Object> removed = (Map<String, Object>) json.get("lock");
            assertThat(removed)
                    .containsEntry("name", "stuck-json")
                    .containsEntry("held", true)
                    .containsEntry("holder", owner)
                    .containsEntry("fencingToken", lease.fencingToken())
                    .containsEntry("kind", "mutex")
                    .containsKeys("remainingMillis", "waiters", "capacity", "holders", "queue");
            assertThat(redis.held("stuck-json")).isFalse();
        }

        Cli free = Cli.run("release", "--redis", redis.uri(), "--force", "--json", "stuck-json");
        assertThat(free.exitCode()).as(free.toString()).isZero();
        assertThat(StrictJson.object(free.stdout()))
                .hasSize(4)
                .containsAllEntriesOf(Map.of("name", "stuck-json", "removed", false, "handedOver", false))
                .containsEntry("lock", null);
    }

    @Test
    void status_takesTheUriFromDlockRedisUrl() {
        try (Cli status = Cli.start(Map.of("DLOCK_REDIS_URL", redis.uri()), "status", "env-one")) {
            assertThat(status.waitFor(Duration.ofSeconds(60)))
                    .as(status.toString())
                    .isEqualTo(1);
            assertThat(status.stdout()).contains("lock 'env-one' is free");
        }
    }

    @Test
    void releaseForce_whenFree_saysNothingWasRemoved() {
        Cli release = Cli.run("release", "--redis", redis.uri(), "--force", "nothing-here");
        assertThat(release.exitCode()).isZero();
        assertThat(release.stdout()).contains("was not held; nothing removed");
    }

    @Test
    void semaphore_statusListAndReleaseForce_showHoldersWithPermitsAndTheQueue() throws Exception {
        try (LockClient holder = client();
                LockClient waiter = client()) {
            Lease two = holder.semaphore("pool", 3).acquire(2);
            Lease one = holder.semaphore("pool", 3).acquire();
            var waiting = waiter.semaphore("pool", 3).acquireAsync(2, Duration.ofSeconds(60));
            Cli.await("a waiter queued", Duration.ofSeconds(10), () -> redis.sharedQueued("pool") == 1L);

            Cli status = Cli.run("status", "--redis", redis.uri(), "pool", "--json");
            assertThat(status.exitCode()).as(status.toString()).isZero();
            Map<String, Object> json = StrictJson.object(status.stdout());
            assertThat(json)
                    .containsEntry("kind", "semaphore")
                    .containsEntry("held", true)
                    .containsEntry("capacity", 3L)
                    .containsEntry("fencingToken", one.fencingToken())
                    .containsEntry("waiters", 1L);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> holders = (List<Map<String, Object>>) json.get("holders");
            assertThat(holders).extracting(h -> h.get("weight")).containsExactly(2L, 1L);
            assertThat(holders)
                    .extracting(h -> h.get("fencingToken"))
                    .containsExactly(two.fencingToken(), one.fencingToken());
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> queue = (List<Map<String, Object>>) json.get("queue");
            assertThat(queue).singleElement().satisfies(w -> assertThat(w).containsEntry("weight", 2L));

            Cli text = Cli.run("status", "--redis", redis.uri(), "pool");
            assertThat(text.exitCode()).as(text.toString()).isZero();
            assertThat(text.stdout())
                    .contains("semaphore 'pool' is held: 3 of 3 permits in use", (String)
                            holders.get(0).get("owner"))
                    .contains(
                            String.valueOf(two.fencingToken()),
                            "waiters: 1",
                            (String) queue.get(0).get("owner") + " wants 2");

            Cli list = Cli.run("list", "--redis", redis.uri(), "po*");
            assertThat(list.stdout()).contains("pool", "semaphore", "3/3", "(+1 more)");

            Cli release = Cli.run("release", "--redis", redis.uri(), "--force", "pool");
            assertThat(release.exitCode()).as(release.toString()).isZero();
            assertThat(release.stdout())
                    .contains(
                            "removed 2 holder(s) of semaphore 'pool'; granted permits to queued waiters",
                            "2 permit(s), fencing token " + two.fencingToken(),
                            "1 permit(s), fencing token " + one.fencingToken());
            Lease granted = waiting.get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(granted.fencingToken()).isGreaterThan(one.fencingToken());
            Cli.await("the holder to notice the loss", Duration.ofSeconds(30), () -> !two.isValid() && !one.isValid());
            granted.release();
        }
    }
}
