package dev.dlock.cli;

import dev.dlock.testkit.RedisExtension;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The redis-server of a test class that runs dlock commands against locks ({@link RedisExtension}: started once,
 * flushed before each test), and what a lock's keys on it say, read with plain commands in the default key layout
 * (docs/waiting.md) rather than through dlock's own code. Register it on a static field: one server per class.
 */
final class LockServer implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {
    private final RedisExtension redis = RedisExtension.builder().build();

    @Override
    public void beforeAll(ExtensionContext context) {
        redis.beforeAll(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        redis.beforeEach(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        redis.afterAll(context);
    }

    String uri() {
        return redis.server().uri();
    }

    Object command(String... args) {
        return redis.server().command(args);
    }

    /** The holder's owner id, or null when the lock is free. */
    String owner(String name) {
        return (String) command("HGET", key(name), "owner");
    }

    boolean held(String name) {
        return owner(name) != null;
    }

    /** Acquires queued in Redis for a hand-off of the lock. */
    long queued(String name) {
        return (Long) command("ZCARD", key(name) + ":q");
    }

    /** Acquires queued in Redis for permits of the semaphore (any shared kind). */
    long sharedQueued(String name) {
        return (Long) command("ZCARD", key(name) + ":sq");
    }

    /** The last fencing token issued for the lock, or null. */
    String fence(String name) {
        return (String) command("GET", key(name) + ":fence");
    }

    /** Once somebody holds the lock, deletes its key behind the holder's back: its next renewal finds it gone. */
    void deleteOnceHeld(String name) {
        Cli.await("the lock " + name + " to be taken", Duration.ofSeconds(30), () -> held(name));
        command("DEL", key(name));
    }

    private static String key(String name) {
        return "dlock:{" + name + "}";
    }
}
