package dev.dlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

final class WakeOneIT {
    /** Script executions that ran, from INFO commandstats. */
    private static long scriptCalls(RedisServer server) {
        String stats = (String) server.command("INFO", "commandstats");
        long calls = 0;
        Matcher m = Pattern.compile("cmdstat_(evalsha|eval):calls=(\\d+),.*failed_calls=(\\d+)")
                .matcher(stats);
        while (m.find()) {
            // a NOSCRIPT reply (first use of a script) is a failed EVALSHA followed by EVAL: count runs
            calls += Long.parseLong(m.group(2)) - Long.parseLong(m.group(3));
        }
        return calls;
    }

    @Test
    @Disabled("finds a real bug: about 1 run in 5 the release's wake-up reaches no waiter, which then"
            + " sleeps until the holder's PTTL bound; enable once the lost wake-up in WaitRoom is fixed")
    void release_wakesOneWaiterPerClient_notAll() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                LockClient holderClient = LockClient.connect(server.uri());
                LockClient waiterClient = LockClient.connect(server.uri())) {
            Lease held = holderClient.lock("w1").acquire();
            List<CompletableFuture<Lease>> waiters = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                waiters.add(waiterClient.lock("w1").acquireAsync(Duration.ofSeconds(60)));
            }
            Thread.sleep(2000); // every waiter has made its subscribed, marked try and sleeps
            server.command("CONFIG", "RESETSTAT");
            held.release();
            Lease first = CompletableFuture.anyOf(waiters.toArray(new CompletableFuture<?>[0]))
                    .thenApply(Lease.class::cast)
                    .get(5, TimeUnit.SECONDS);
            Thread.sleep(300);
            // the release + exactly one woken try; waking all four would make it 5
            assertThat(scriptCalls(server))
                    .as((String) server.command("INFO", "commandstats"))
                    .isEqualTo(2);
            assertThat(waiters.stream().filter(CompletableFuture::isDone).count())
                    .isEqualTo(1);
            first.release();
            for (CompletableFuture<Lease> w : waiters) {
                if (w != null && !w.isDone()) {
                    w.get(5, TimeUnit.SECONDS).release();
                }
            }
        }
    }
}
