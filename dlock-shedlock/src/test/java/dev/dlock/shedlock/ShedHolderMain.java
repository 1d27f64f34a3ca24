package dev.dlock.shedlock;

import dev.dlock.LockClient;
import dev.dlock.resp.RespTransportFactory;
import java.time.Duration;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/** Takes a ShedLock lock through {@link DlockLockProvider} in its own JVM, prints {@code LOCKED}, and waits to be killed. */
public final class ShedHolderMain {
    private ShedHolderMain() {}

    /**
     * Entry point.
     *
     * @param args Redis URI, lock name, lockAtMostFor in ms
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        LockClient client = LockClient.builder()
                .redisUri(args[0])
                .transport(new RespTransportFactory())
                .build();
        Duration atMost = Duration.ofMillis(Long.parseLong(args[2]));
        new DlockLockProvider(client)
                .lock(new LockConfiguration(ClockProvider.now(), args[1], atMost, Duration.ZERO))
                .orElseThrow();
        System.out.println("LOCKED");
        Thread.sleep(Long.MAX_VALUE);
    }
}
