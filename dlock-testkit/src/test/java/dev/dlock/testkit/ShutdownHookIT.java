package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class ShutdownHookIT {

    private static final Duration TIMEOUT = Timing.scaled(Duration.ofSeconds(15));

    @Test
    void jvmExit_killsUnclosedServer_andDeletesItsDataDir() {
        try (JvmProcess child = JvmProcess.start(LeakyRedisMain.class)) {
            String[] line = child.awaitLine("SERVER ", TIMEOUT).split(" ");
            long redisPid = Long.parseLong(line[1]);
            Path dataDir = Path.of(line[2]);
            assertThat(ProcessHandle.of(redisPid).map(ProcessHandle::isAlive)).isEqualTo(Optional.of(true));

            child.send("exit");

            assertThat(child.waitFor(TIMEOUT)).isZero();
            assertThat(ProcessHandle.of(redisPid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
            assertThat(dataDir).doesNotExist();
        }
    }
}
