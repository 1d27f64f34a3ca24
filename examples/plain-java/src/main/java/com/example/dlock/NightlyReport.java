package com.example.dlock;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import java.util.function.LongConsumer;

/**
 * A job that runs under the distributed lock {@value #LOCK_NAME}: one copy at a time, however many processes on
 * however many hosts start it.
 *
 * <p>Run: {@code mvn -f examples/plain-java exec:java -Dexec.args=redis://HOST:PORT}. Without an argument the Redis URI
 * comes from {@code DLOCK_REDIS_URL}, else {@code redis://127.0.0.1:6379}.
 */
public final class NightlyReport {

    static final String LOCK_NAME = "nightly-report";

    private NightlyReport() {}

    /**
     * Connects, runs the job once under the lock and disconnects.
     *
     * @param args an optional Redis URI
     */
    public static void main(String[] args) {
        String redisUri =
                args.length > 0 ? args[0] : System.getenv().getOrDefault("DLOCK_REDIS_URL", "redis://127.0.0.1:6379");
        // One client per application, shared by all its threads; closing it releases whatever it still holds.
        try (LockClient client = LockClient.connect(redisUri)) {
            runExclusively(client, token -> System.out.println(LOCK_NAME + " ran under fencing token " + token));
        }
    }

    /**
     * Waits for the lock, runs the job while holding it, and releases it, also when the job throws.
     *
     * @param client the application's lock client
     * @param job the work; it gets the lease's fencing token, to pass to every resource it writes, so that the
     *     resource can reject a write from an older holder whose lease ran out during a long pause
     */
    static void runExclusively(LockClient client, LongConsumer job) {
        try (Lease lease = client.lock(LOCK_NAME).acquire()) {
            job.accept(lease.fencingToken());
        }
    }
}
