package net.javacrumbs.shedlock.support;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;

/**
 * ShedLock's {@link KeepAliveLockProvider} with a shorter minimal {@code lockAtMostFor} than the 30 s
 * its public constructor enforces, through the package-private constructor ShedLock's own tests use:
 * so a test keeps a lock alive past {@code lockAtMostFor} in seconds rather than in minutes.
 */
public final class KeepAliveForTests {
    private KeepAliveForTests() {}

    public static KeepAliveLockProvider keepAlive(
            ExtensibleLockProvider wrapped, ScheduledExecutorService executor, Duration minimalLockAtMostFor) {
        return new KeepAliveLockProvider(wrapped, executor, minimalLockAtMostFor);
    }
}
