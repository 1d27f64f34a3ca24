package dev.dlock.internal.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.internal.util.Await;
import dev.dlock.internal.util.Controls;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * The negative control {@code replica-ack-skipped} (Controls): a client built with {@code replicaAcks} runs its
 * granting writes without their {@code WAIT} and counts them acknowledged; without it, they go through {@link
 * Transport#evalReplicated} and count only what the replicas acknowledged. dlock-sim's SimulationTest catches the
 * control through a failover that loses such a grant.
 */
final class ReplicaAckSkippedControlTest {
    private static final ReplicaAck ACK = new ReplicaAck(1, Duration.ofMillis(100), false);
    private static final Script SCRIPT = Script.of("s", "return 1", Script.Reply.INTEGER);

    /** Answers every script with 1, and every WAIT with 0 replicas; records which way each went. */
    private static final class NoReplica implements Transport {
        final List<String> calls = new ArrayList<>();

        @Override
        public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
            calls.add("eval");
            return CompletableFuture.completedFuture(1L);
        }

        @Override
        public boolean waitsForReplicas() {
            return true;
        }

        @Override
        public CompletableFuture<Replicated> evalReplicated(
                Script script, String[] keys, String[] args, ReplicaAck ack) {
            calls.add("evalReplicated");
            return CompletableFuture.completedFuture(new Replicated(1L, 0));
        }

        @Override
        public CompletableFuture<Void> subscribe(String channel) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> unsubscribe(String channel) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void onMessage(BiConsumer<String, String> listener) {}

        @Override
        public void close() {}
    }

    @Test
    void withoutTheControl_aGrantWaitsForTheReplicas_andCountsWhatTheyAcknowledged() {
        NoReplica transport = new NoReplica();
        ScriptRunner runner =
                new ScriptRunner(transport, "redis://x", Duration.ofSeconds(1), ACK, Controls.NONE, Await.SYSTEM);
        Replicated reply =
                runner.evalGranting(SCRIPT, new String[] {"k"}, new String[0]).join();
        assertThat(transport.calls).containsExactly("evalReplicated");
        assertThat(runner.acknowledged(reply)).isFalse();
    }

    @Test
    void withTheControl_aGrantSkipsItsWait_andCountsAsAcknowledged() {
        NoReplica transport = new NoReplica();
        Controls controls = Controls.parse("replica-ack-skipped");
        assertThat(controls.has(Controls.Control.REPLICA_ACK_SKIPPED)).isTrue();
        ScriptRunner runner =
                new ScriptRunner(transport, "redis://x", Duration.ofSeconds(1), ACK, controls, Await.SYSTEM);
        Replicated reply =
                runner.evalGranting(SCRIPT, new String[] {"k"}, new String[0]).join();
        assertThat(transport.calls).containsExactly("eval");
        assertThat(runner.acknowledged(reply)).isTrue();
    }
}
