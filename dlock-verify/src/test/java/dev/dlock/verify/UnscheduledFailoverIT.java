package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RespConnection;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A failover the sentinels make on their own (on a loaded host, a master deemed down after 1 s) on real processes:
 * {@link FailoverFaults} records it as fault {@code failover-unscheduled}, spanning from the heal before it to its own
 * heal, so that checker 5 does not blame the lock for what a {@code replicaAcks} client is refused meanwhile.
 */
final class UnscheduledFailoverIT {

    private static final Duration TTL = Duration.ofMillis(500);

    @Test
    void lookForUnscheduled_afterAFailoverBehindTheNemesisBack_recordsItOnceAsAFault() throws Exception {
        try (FailoverFaults faults = FailoverFaults.start(TTL, false, "minority")) {
            long started = System.nanoTime();
            assertThat(faults.lookForUnscheduled()).isFalse();
            assertThat(faults.takeUnscheduled()).isEmpty();

            String sentinel =
                    faults.uri().substring("redis-sentinel://".length()).split("[,#]")[0];
            String host = sentinel.substring(0, sentinel.lastIndexOf(':'));
            int port = Integer.parseInt(sentinel.substring(sentinel.lastIndexOf(':') + 1));
            long failedOver;
            try (RespConnection connection = RespConnection.open(host, port, null, Duration.ofSeconds(5))) {
                String before = master(connection);
                // what the sentinels do unasked when the master misses its pings for down-after
                connection.call("SENTINEL", "FAILOVER", "dlock-verify");
                long until = System.nanoTime()
                        + Timing.scaled(Duration.ofSeconds(30)).toNanos();
                while (master(connection).equals(before)) {
                    assertThat(System.nanoTime()).as("the sentinels' failover").isLessThan(until);
                    Thread.sleep(50);
                }
                failedOver = System.nanoTime();
            }

            assertThat(faults.lookForUnscheduled()).isTrue();
            List<FaultInjector.Injected> seen = faults.takeUnscheduled();
            assertThat(seen).singleElement().satisfies(fault -> {
                assertThat(fault.fault()).isEqualTo(Fault.FAILOVER_UNSCHEDULED);
                assertThat(fault.skipped()).isNull();
                assertThat(fault.start())
                        .isLessThanOrEqualTo(started); // no fault before it: since the deployment began
                assertThat(fault.heal()).isGreaterThanOrEqualTo(failedOver);
                assertThat(fault.livenessFrom()).isEqualTo(fault.heal());
            });
            assertThat(faults.notes())
                    .anySatisfy(note -> assertThat(note)
                            .contains("failed over on their own", "recorded as fault failover-unscheduled"));
            // seen once: the next look finds the deployment as the last one left it
            assertThat(faults.lookForUnscheduled()).isFalse();
            assertThat(faults.takeUnscheduled()).isEmpty();
        }
    }

    private static String master(RespConnection sentinel) throws Exception {
        List<?> address = (List<?>) sentinel.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "dlock-verify");
        return address.get(0) + ":" + address.get(1);
    }
}
