package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class JvmProcessIT {

    private static final Duration TIMEOUT = Timing.scaled(Duration.ofSeconds(15));

    @Test
    void awaitLine_andSend_echoLines() {
        try (JvmProcess child = JvmProcess.start(EchoMain.class, "a", "b")) {
            assertThat(child.awaitLine("ARGS ", TIMEOUT)).isEqualTo("ARGS a,b");
            assertThat(child.awaitLine("READY", TIMEOUT)).isEqualTo("READY " + child.pid());

            child.send("hello");
            child.send("world");

            assertThat(child.awaitLine("ECHO", TIMEOUT)).isEqualTo("ECHO hello");
            assertThat(child.awaitLine("ECHO", TIMEOUT)).isEqualTo("ECHO world");
            assertThat(child.stdout()).contains("READY");
        }
    }

    @Test
    void builder_passesJvmArgs() {
        try (JvmProcess child = JvmProcess.builder(EchoMain.class)
                .jvmArgs("-Decho.prop=yes", "-Xmx64m")
                .start()) {
            assertThat(child.awaitLine("PROP", TIMEOUT)).isEqualTo("PROP yes");
        }
    }

    @Test
    void pause_freezesProcess_untilResume() {
        try (JvmProcess child = JvmProcess.start(EchoMain.class)) {
            child.awaitLine("READY", TIMEOUT);

            child.pause();
            child.send("while-paused");

            assertThatThrownBy(() -> child.awaitLine("ECHO", Duration.ofMillis(300)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("within")
                    .hasMessageContaining("echo-main stderr");
            assertThat(child.isAlive()).isTrue();

            child.resume();

            assertThat(child.awaitLine("ECHO", TIMEOUT)).isEqualTo("ECHO while-paused");
        }
    }

    @Test
    void kill_endsProcess_andAwaitLineReportsExit() {
        JvmProcess child = JvmProcess.start(EchoMain.class);
        try (child) {
            child.awaitLine("READY", TIMEOUT);
            child.pause();

            child.kill();

            assertThat(child.isAlive()).isFalse();
            assertThat(child.waitFor(TIMEOUT)).isEqualTo(137);
            assertThatThrownBy(() -> child.awaitLine("ECHO", TIMEOUT))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("exited");
        }
        assertThat(ProcessHandle.of(child.pid()).map(ProcessHandle::isAlive)).isNotEqualTo(java.util.Optional.of(true));
    }

    @Test
    void waitFor_returnsExitCode() {
        try (JvmProcess child = JvmProcess.start(EchoMain.class)) {
            child.awaitLine("READY", TIMEOUT);

            child.send("EXIT 3");

            assertThat(child.waitFor(TIMEOUT)).isEqualTo(3);
            assertThat(child.isAlive()).isFalse();
        }
    }

    @Test
    void close_whilePaused_killsProcess() {
        JvmProcess child = JvmProcess.start(EchoMain.class);
        child.awaitLine("READY", TIMEOUT);
        child.pause();

        child.close();
        child.close();

        assertThat(child.isAlive()).isFalse();
    }
}
