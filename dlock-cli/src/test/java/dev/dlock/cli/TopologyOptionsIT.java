package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.SentinelSetup;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --redlock} and {@code --replica-acks} from the CLI jar's class path: {@code run} and {@code
 * status} over three independent masters, {@code list} refused there (exit 64), a list of
 * {@code redis://} URIs refused without {@code --redlock}, and {@code run --replica-acks 1} on a
 * Sentinel master with a replica.
 */
final class TopologyOptionsIT {
    @RegisterExtension
    static final TopologyExtension<IndependentMasters> masters =
            IndependentMasters.builder().masters(3).extension();

    private static String redlockUris() {
        return String.join(",", masters.get().uris());
    }

    @Test
    void run_andStatus_overThreeMasters() {
        Cli run = Cli.start("run", "--redlock", "--redis", redlockUris(), "--name", "rl-job", "--", "true");
        assertThat(run.waitFor(Duration.ofSeconds(60))).as(run.toString()).isZero();
        Cli status = Cli.start("status", "--redlock", "--redis", redlockUris(), "rl-job");
        assertThat(status.waitFor(Duration.ofSeconds(60))).as("1: free").isEqualTo(1);
        assertThat(status.stdout()).contains("lock 'rl-job' is free", "last fencing token: 1");
        for (RedisServer server : masters.get().servers()) {
            assertThat(server.command("EXISTS", "dlock:{rl-job}:redlock"))
                    .as("released on " + server)
                    .isEqualTo(0L);
        }
    }

    @Test
    void list_isRefusedOnRedlock_andAListOfUrisNeedsRedlock() {
        Cli list = Cli.start("list", "--redlock", "--redis", redlockUris());
        assertThat(list.waitFor(Duration.ofSeconds(60))).as(list.toString()).isEqualTo(64);
        assertThat(list.stderr()).contains("not supported on a Redlock client");
        Cli noFlag = Cli.start("status", "--redis", redlockUris(), "x");
        assertThat(noFlag.waitFor(Duration.ofSeconds(60))).as(noFlag.toString()).isEqualTo(64);
        assertThat(noFlag.stderr()).contains("--redis", "needs --redlock");
        Cli acks = Cli.start("status", "--redlock", "--replica-acks", "1", "--redis", redlockUris(), "x");
        assertThat(acks.waitFor(Duration.ofSeconds(60))).as(acks.toString()).isEqualTo(64);
        assertThat(acks.stderr()).contains("--replica-acks");
    }

    @Test
    void run_withReplicaAcks_onAMasterWithoutReplicas_failsSayingSo() {
        String lone = masters.get().server(0).uri();
        Cli run = Cli.start("run", "--replica-acks", "1", "--redis", lone, "--name", "unacked", "--", "true");
        assertThat(run.waitFor(Duration.ofSeconds(60))).as(run.toString()).isEqualTo(69);
        assertThat(run.stderr()).contains("acknowledged by 0 of the 1 replica(s)");
        assertThat(masters.get().server(0).command("EXISTS", "dlock:{unacked}"))
                .as("undone")
                .isEqualTo(0L);
    }

    @Test
    void run_withReplicaAcks_onASentinelMaster() {
        try (SentinelSetup setup = SentinelSetup.builder().replicas(1).start()) {
            Cli run = Cli.start("run", "--replica-acks", "1", "--redis", setup.uri(), "--name", "acked", "--", "true");
            assertThat(run.waitFor(Duration.ofSeconds(60))).as(run.toString()).isZero();
        }
    }
}
