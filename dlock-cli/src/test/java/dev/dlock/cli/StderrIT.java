package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What reaches stderr: by default dlock's own lines only, never a client library's log lines (Lettuce logged a JUL
 * warning for a refused Sentinel before this was decided); {@code --verbose} shows them. dlock's own warnings by
 * default: {@code RunIT}'s lost lease.
 */
final class StderrIT {
    @Test
    void refusedPort_stderrIsDlocksOneMessage() {
        assertStderrIsOnlyDlocksMessage("redis://127.0.0.1:" + Cli.freePort());
    }

    @Test
    void refusedCluster_stderrIsDlocksOneMessage_verboseAddsLettucesLog() {
        // redis-cluster:// is served by dlock-lettuce, whose refused connection logs through Netty/Lettuce
        String uri = "redis-cluster://127.0.0.1:" + Cli.freePort();
        assertStderrIsOnlyDlocksMessage(uri);

        Cli verbose = Cli.run("status", "--verbose", "--redis", uri, "x");
        assertThat(verbose.exitCode()).as(verbose.toString()).isEqualTo(69);
        assertThat(verbose.stderr())
                .as(verbose.toString())
                .containsPattern("(?m)^dlock: \\d\\d:\\d\\d:\\d\\d\\.\\d{3} warning io\\.lettuce\\.core\\.\\S+: ")
                .contains("dlock: cannot reach Redis at " + uri + ": ");
    }

    /** {@code dlock status} against a refused URI: exit 69 and one line on stderr, dlock's. */
    private static void assertStderrIsOnlyDlocksMessage(String uri) {
        Cli status = Cli.run("status", "--redis", uri, "x");
        assertThat(status.exitCode()).as(status.toString()).isEqualTo(69);
        assertThat(status.stderr().lines())
                .as(status.toString())
                .singleElement()
                .asString()
                .startsWith("dlock: cannot reach Redis at " + uri + ": ");
    }
}
