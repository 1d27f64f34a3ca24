package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class ShutdownHookIT {

    private static final Duration TIMEOUT = Timing.scaled(Duration.ofSeconds(15));

    @Test
    void jvmExit_killsUnclosedServer_andDeletesItsDataDir() {
        assertJvmExitLeavesNothing(List.of());
    }

    @Test
    void jvmExit_killsEveryProcessOfAnUnclosedSentinelSetup_evenAPausedOne_andDeletesTheirDirs() {
        assertThat(assertJvmExitLeavesNothing(List.of("sentinel"))).isEqualTo(5);
    }

    private static int assertJvmExitLeavesNothing(List<String> args) {
        try (JvmProcess child = JvmProcess.builder(LeakyRedisMain.class)
                .args(args.toArray(new String[0]))
                .start()) {
            List<Long> pids = new ArrayList<>();
            List<Path> dirs = new ArrayList<>();
            for (String line = child.awaitLine("", TIMEOUT);
                    !line.equals("READY");
                    line = child.awaitLine("", TIMEOUT)) {
                String[] fields = line.split(" ");
                assertThat(fields[0]).isEqualTo("SERVER");
                pids.add(Long.parseLong(fields[1]));
                dirs.add(Path.of(fields[2]));
            }
            for (long pid : pids) {
                assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isEqualTo(Optional.of(true));
            }

            child.send("exit");

            assertThat(child.waitFor(TIMEOUT)).isZero();
            for (long pid : pids) {
                assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive))
                        .as("pid %d", pid)
                        .isNotEqualTo(Optional.of(true));
            }
            assertThat(dirs).allSatisfy(dir -> assertThat(dir).doesNotExist());
            return pids.size();
        }
    }
}
