package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** A test class whose tests fail still leaves no process and no directory of its topology behind. */
final class TopologyExtensionCleanupIT {

    private static final List<Long> PIDS = new CopyOnWriteArrayList<>();
    private static final List<Path> DIRS = new CopyOnWriteArrayList<>();

    @Test
    void failingTests_stillCloseThePerClassAndPerMethodTopologies() {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create()
                .execute(
                        LauncherDiscoveryRequestBuilder.request()
                                .selectors(selectClass(FailingTests.class))
                                .build(),
                        listener);

        TestExecutionSummary summary = listener.getSummary();
        assertThat(summary.getTestsFailedCount()).isEqualTo(2);
        assertThat(PIDS).hasSize(4);
        for (long pid : PIDS) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive))
                    .as("pid %d", pid)
                    .isNotEqualTo(Optional.of(true));
        }
        assertThat(DIRS).hasSize(4).allSatisfy(dir -> assertThat(dir).doesNotExist());
    }

    /** Run only through the launcher above (Surefire leaves nested classes alone). */
    static final class FailingTests {

        @RegisterExtension
        static final TopologyExtension<IndependentMasters> perClass =
                IndependentMasters.builder().masters(2).extension();

        @RegisterExtension
        final TopologyExtension<IndependentMasters> perMethod =
                IndependentMasters.builder().masters(1).aof(true).extension();

        @Test
        void pausedServerAndFailedAssertion() {
            remember(perClass.get());
            remember(perMethod.get());
            perClass.get().server(0).pause();
            throw new AssertionError("expected failure");
        }

        @Test
        void killedServerAndException() {
            remember(perClass.get());
            remember(perMethod.get());
            perMethod.get().server(0).kill();
            throw new IllegalStateException("expected failure");
        }

        private static void remember(IndependentMasters masters) {
            for (RedisServer server : masters.servers()) {
                if (!PIDS.contains(server.pid())) {
                    PIDS.add(server.pid());
                    DIRS.add(server.dataDir());
                }
            }
        }
    }
}
