package dev.dlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.pinprobe.SlowInit;
import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * W15 in small sizes against a real redis-server (each mode completes holds, without overlap, pinned carriers in dlock
 * or a platform thread per waiter), and its checks failing when they should: platform threads, a pinned carrier in a
 * {@code dev.dlock} class, a throughput under 2× Redisson's, an overlap, a failed run. The virtual-thread tests need
 * JDK 21+: CI runs them in its JDK 25 step (.ci/run); the rest run on every JDK.
 */
final class VirtualRunIT {
    private static final VirtualRun.Sizes SMALL = new VirtualRun.Sizes(400, 10, 300, 1_000);
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Carriers.Pinned NONE = new Carriers.Pinned(0, 0, Map.of());

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void virtualThreads_everyModeHolds_withoutOverlap_pinnedCarriersOrAPlatformThreadPerWaiter() {
        try (RedisServer server = RedisServer.builder().start()) {
            Target target = Target.standalone(server.host(), server.port());
            for (VirtualRun.Mode mode : VirtualRun.Mode.values()) {
                VirtualRun.Result r = VirtualRun.run(mode, target, SMALL, Carriers.virtualThreads(), LEASE, 1);
                assertThat(r.failure()).as(mode.label).isNull();
                assertThat(r.pairsPerSecond()).as(mode.label).isPositive();
                assertThat(r.violations()).as(mode.label).isZero();
                if (mode.dlock) {
                    assertThat(r.pinned().inDlock()).as(mode.label).isZero();
                    assertThat(r.platformThreadsAdded())
                            .as(mode.label)
                            .isLessThanOrEqualTo(SMALL.platformThreadLimit());
                }
                server.command("FLUSHALL");
            }
        }
    }

    @Test
    void platformThreads_failTheThreadCheck() {
        try (RedisServer server = RedisServer.builder().start()) {
            Target target = Target.standalone(server.host(), server.port());
            VirtualRun.Result r =
                    VirtualRun.run(VirtualRun.Mode.DLOCK_LOCK, target, SMALL, Carriers.platformThreads(), LEASE, 1);
            assertThat(r.failure()).isNull();
            assertThat(r.platformThreadsAdded()).isGreaterThanOrEqualTo(SMALL.threads() - 10);
            assertThat(VirtualRun.failedChecks(List.of(List.of(r, redisson(1))), SMALL))
                    .anyMatch(f -> f.contains("platform threads added for 400 waiters"));
        }
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void recording_seesACarrierPinnedInADlockClass() throws Exception {
        Recording recording = Carriers.startRecording();
        ThreadFactory virtual = Carriers.virtualThreads();
        Thread t = virtual.newThread(SlowInit::touch);
        t.start();
        t.join();
        Carriers.Pinned pinned = Carriers.stopAndRead(recording);
        assertThat(pinned.inDlock()).isEqualTo(1);
        assertThat(pinned.dlockFrames()).containsOnlyKeys("dev.dlock.pinprobe.SlowInit.<clinit>");
        VirtualRun.Result r = new VirtualRun.Result(VirtualRun.Mode.DLOCK_LEASE, 3000, 0, 0, 5, pinned, null);
        assertThat(VirtualRun.failedChecks(
                        List.of(List.of(dlock(VirtualRun.Mode.DLOCK_LOCK, 3000), r, redisson(1000))), SMALL))
                .containsExactly("dlock acquire()/Lease: 1 pinned events in dlock's code at"
                        + " {dev.dlock.pinprobe.SlowInit.<clinit>=1}");
    }

    @Test
    void checks_passAGoodRun_andFailEachMissedGoal() {
        List<VirtualRun.Result> good = List.of(
                dlock(VirtualRun.Mode.DLOCK_LOCK, 3000), dlock(VirtualRun.Mode.DLOCK_LEASE, 2500), redisson(1000));
        assertThat(VirtualRun.failedChecks(List.of(good, good, good), SMALL)).isEmpty();

        List<VirtualRun.Result> slow = List.of(
                dlock(VirtualRun.Mode.DLOCK_LOCK, 1900), dlock(VirtualRun.Mode.DLOCK_LEASE, 2500), redisson(1000));
        assertThat(VirtualRun.failedChecks(List.of(slow, slow, good), SMALL))
                .containsExactly("dlock lock()/unlock(): 1.90× Redisson's pairs/s (median), not ≥ 2×");

        List<VirtualRun.Result> overlap = List.of(
                new VirtualRun.Result(VirtualRun.Mode.DLOCK_LOCK, 3000, 2, 0, 5, NONE, null),
                dlock(VirtualRun.Mode.DLOCK_LEASE, 2500),
                new VirtualRun.Result(
                        VirtualRun.Mode.REDISSON, 1000, 0, 0, 40, new Carriers.Pinned(0, 7, Map.of()), null));
        assertThat(VirtualRun.failedChecks(List.of(overlap), SMALL))
                .containsExactly("dlock lock()/unlock(): 2 exclusion violations");

        List<VirtualRun.Result> broken = List.of(
                new VirtualRun.Result(VirtualRun.Mode.DLOCK_LOCK, Double.NaN, 0, 0, 0, null, "boom"),
                dlock(VirtualRun.Mode.DLOCK_LEASE, 2500),
                redisson(1000));
        assertThat(VirtualRun.failedChecks(List.of(broken), SMALL))
                .containsExactly(
                        "dlock lock()/unlock() failed: boom",
                        "dlock lock()/unlock(): NaN× Redisson's pairs/s (median), not ≥ 2×");
    }

    @Test
    void report_keepsW15sSection_whenTheMainSuiteOrTheTopologiesAreRewritten() {
        String page = Report.splice("main 1\n\n", null, "## W15 1\n\n", "## Topologies 1\n\n");
        assertThat(page)
                .isEqualTo("main 1\n\n" + Report.VIRTUAL_MARK + "## W15 1\n\n" + Report.TOPOLOGIES_MARK
                        + "## Topologies 1\n\n" + Report.HISTORY_POINTER);
        String rewritten = Report.splice(Report.splice(page, "main 2\n\n", null), null, "## Topologies 2\n\n");
        assertThat(rewritten)
                .isEqualTo("main 2\n\n" + Report.VIRTUAL_MARK + "## W15 1\n\n" + Report.TOPOLOGIES_MARK
                        + "## Topologies 2\n\n" + Report.HISTORY_POINTER);
        assertThat(Report.splice(rewritten, null, "## W15 2\n\n", null))
                .contains("main 2", "## W15 2", "## Topologies 2");
    }

    @Test
    void pinnedFrames_countOnlyDlocksLibraryCode() {
        assertThat(Carriers.firstDlockFrame(
                        List.of("java.lang.Thread.sleep", "dev.dlock.resp.Connection.open", "dev.dlock.bench.X.run")))
                .isEqualTo("dev.dlock.resp.Connection.open");
        assertThat(Carriers.firstDlockFrame(List.of("java.lang.Object.wait", "dev.dlock.bench.VirtualRun$Worker.run")))
                .isNull();
        assertThat(Carriers.firstDlockFrame(List.of("org.redisson.RedissonLock.lock")))
                .isNull();
    }

    private static VirtualRun.Result dlock(VirtualRun.Mode mode, double pairsPerSecond) {
        return new VirtualRun.Result(mode, pairsPerSecond, 0, 0, 5, NONE, null);
    }

    private static VirtualRun.Result redisson(double pairsPerSecond) {
        return new VirtualRun.Result(VirtualRun.Mode.REDISSON, pairsPerSecond, 0, 0, 40, NONE, null);
    }
}
