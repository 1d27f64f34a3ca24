package dev.dlock.internal.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.internal.testing.SocketTransport;
import dev.dlock.internal.util.Controls;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;
import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.TopologyExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The fencing write-back of a Redlock acquire (docs/redlock.md, "Fencing tokens"): before an acquire
 * returns, every node that answered it holds a counter of at least the token, so that tokens increase
 * from one hold to the next while d + ℓ ≤ N − quorum. The reproduction of issue 24's defect 3, on 3
 * masters without AOF: counters A=5, B=3, C=5; hold 1 gets 6 while its write-back to B fails once; A
 * restarts empty (ℓ = 1); a competitor holds C; hold 2 must still get more than 6 (it got 5 when a bare
 * quorum of confirmations was enough). The faults are a wrapped transport on one node ({@link
 * FaultyNode}); every test uses its own lock name and leaves every node up.
 */
@Isolated // sets dlock.unsafe.control, which every client built meanwhile would read
final class RedlockFencingIT {
    @RegisterExtension
    static final TopologyExtension<IndependentMasters> MASTERS =
            IndependentMasters.builder().masters(3).aof(false).extension();

    private static final int A = 0;
    private static final int B = 1;
    private static final int C = 2;

    @Test
    void aWriteBackFailingOnceOnAGrantingNode_isRetried_andTheNextTokenIsLarger(IndependentMasters m) {
        FaultyNode b = new FaultyNode(m.server(B), RedlockScripts.FENCE, FaultyNode::failFirst);
        Tokens tokens = reproduce(m, "fence-fails-once", b);
        assertThat(tokens.second())
                .as("hold 2's token after hold 1's (%s), A restarted empty, C held by a competitor", tokens)
                .isGreaterThan(tokens.first());
        assertThat(tokens.afterFirst()[B])
                .as("node B's counter when hold 1's acquire returned")
                .isGreaterThanOrEqualTo(tokens.first());
        assertThat(b.calls.get())
                .as("write-backs sent to B: hold 1's dropped one and its retry, hold 2's (A behind)")
                .isEqualTo(3);
    }

    @Test
    void aWriteBackReplyLaterThanTheCommandTimeout_isSentAgain(IndependentMasters m) {
        long late = RedlockNodesSupport.COMMAND_TIMEOUT.toMillis() + 300;
        FaultyNode b = new FaultyNode(
                m.server(B),
                RedlockScripts.FENCE,
                (call, send) -> call == 1
                        ? send.get()
                                .thenApplyAsync(
                                        reply -> reply, CompletableFuture.delayedExecutor(late, TimeUnit.MILLISECONDS))
                        : send.get());
        Tokens tokens = reproduce(m, "fence-late", b);
        assertThat(tokens.second()).as("%s", tokens).isGreaterThan(tokens.first());
        assertThat(b.calls.get())
                .as("write-backs sent to B: hold 1's late one and its retry, hold 2's (A behind)")
                .isEqualTo(3);
    }

    @Test
    void aWriteBackFailingOnceOnANodeThatAnsweredBusy_isRetried_andTheNextTokenIsLarger(IndependentMasters m) {
        // the node behind is C, busy for hold 1 (a competitor's key there): it answered, but did not grant
        FaultyNode c = new FaultyNode(m.server(C), RedlockScripts.FENCE, FaultyNode::failFirst);
        Tokens tokens = reproduce(m, "fence-busy-node", c, new long[] {5, 5, 3}, C, A, B);
        assertThat(tokens.second())
                .as("hold 2 (on A restarted empty and C) after hold 1 (on A and B, C busy): %s", tokens)
                .isGreaterThan(tokens.first());
        assertThat(tokens.afterFirst()[C]).as("node C's counter").isGreaterThanOrEqualTo(tokens.first());
    }

    @Test
    void aNodeBehindRestartingEmptyBeforeItsWriteBack_stillGetsTheToken(IndependentMasters m) {
        FaultyNode b = new FaultyNode(m.server(B), RedlockScripts.FENCE, restartingFirst(m, B));
        Tokens tokens = reproduce(m, "fence-restart-behind", b);
        for (int i = 0; i < 3; i++) {
            assertThat(tokens.afterFirst()[i])
                    .as("node %d's counter when hold 1's acquire returned: %s", i, tokens)
                    .isGreaterThanOrEqualTo(tokens.first());
        }
        assertThat(tokens.second()).as("%s", tokens).isGreaterThan(tokens.first());
    }

    @Test
    void aNodeRestartingEmptyAfterItsGrant_isOneThatLostItsData(IndependentMasters m) {
        // A reported the token itself, so the acquire does not wait for its write-back: A counts in ℓ
        FaultyNode a = new FaultyNode(m.server(A), RedlockScripts.FENCE, restartingFirst(m, A));
        Tokens tokens = reproduce(m, "fence-restart-granted", a);
        assertThat(tokens.afterFirst()[B]).as("B: %s", tokens).isGreaterThanOrEqualTo(tokens.first());
        assertThat(tokens.afterFirst()[C]).as("C: %s", tokens).isGreaterThanOrEqualTo(tokens.first());
        assertThat(tokens.second())
                .as("hold 2 through A, restarted empty (ℓ = 1, twice over), and B: %s", tokens)
                .isGreaterThan(tokens.first());
    }

    /** Restarts the node, empty, before the first call reaches it: after it granted, before its write-back. */
    private static FaultyNode.Fault restartingFirst(IndependentMasters m, int node) {
        return (call, send) -> {
            if (call == 1) {
                m.server(node).restart();
            }
            return send.get();
        };
    }

    @Test
    void aWriteBackNeverConfirmed_givesTheHoldUp_andTheAcquireThrows(IndependentMasters m) {
        String name = "fence-never";
        String[] keys = RedlockScripts.keys("dlock", name);
        setCounters(m, keys, new long[] {5, 3, 5});
        FaultyNode b = new FaultyNode(m.server(B), RedlockScripts.FENCE, (call, send) -> failed());
        try (LockClient client = RedlockNodesSupport.builder(m).transport(b).build()) {
            assertThatThrownBy(() -> client.lock(name).tryAcquire(Duration.ZERO))
                    .isInstanceOf(LockConnectionException.class)
                    .hasMessageContaining("did not confirm its fencing token 7 (3 write-backs: connection dropped");
            assertThat(b.calls.get())
                    .as("write-backs to B: 3 for the first attempt, 3 for the one more after the wait's end")
                    .isEqualTo(2 * RedlockAcquirer.WRITE_BACKS);
            for (int i = 0; i < 3; i++) {
                RedlockNodesSupport.awaitFree(m.server(i), name); // each hold given up was released
            }
        }
    }

    @Test
    void theControl_redlockPartialFence_letsTheNextTokenGoBackwards(IndependentMasters m) {
        FaultyNode b = new FaultyNode(m.server(B), RedlockScripts.FENCE, FaultyNode::failFirst);
        System.setProperty(Controls.PROPERTY, Controls.Control.REDLOCK_PARTIAL_FENCE.value());
        Tokens tokens;
        try {
            tokens = reproduce(m, "fence-control", b);
        } finally {
            System.clearProperty(Controls.PROPERTY);
        }
        assertThat(tokens)
                .as("hold 1 accepted with B behind, hold 2 through A (empty) and B")
                .isEqualTo(new Tokens(6, 5, new long[] {6, 4, 6}));
    }

    private static Tokens reproduce(IndependentMasters m, String name, FaultyNode fault) {
        return reproduce(m, name, fault, new long[] {5, 3, 5}, -1, A, C);
    }

    /**
     * Sets the counters; takes hold 1 (with {@code busyFirst}'s key held by a competitor, unless -1) and
     * releases it; restarts {@code restarted} empty; takes hold 2 with {@code busySecond}'s key held by a
     * competitor, and releases it.
     */
    private static Tokens reproduce(
            IndependentMasters m,
            String name,
            FaultyNode fault,
            long[] counters,
            int busyFirst,
            int restarted,
            int busySecond) {
        String[] keys = RedlockScripts.keys("dlock", name);
        setCounters(m, keys, counters);
        try (LockClient client = RedlockNodesSupport.builder(m).transport(fault).build()) {
            Lease first = holdWithCompetitorOn(
                    m,
                    busyFirst,
                    keys,
                    () -> client.lock(name).tryAcquire(Duration.ZERO).orElseThrow());
            long[] afterFirst = new long[m.size()];
            for (int i = 0; i < m.size(); i++) {
                afterFirst[i] = RedlockNodesSupport.counterOn(m.server(i), name);
            }
            first.release();
            m.server(restarted).restart(); // empty: ℓ = 1
            Lease second = holdWithCompetitorOn(
                    m,
                    busySecond,
                    keys,
                    () -> client.lock(name).tryAcquire(Duration.ZERO).orElseThrow());
            second.release();
            return new Tokens(first.fencingToken(), second.fencingToken(), afterFirst);
        }
    }

    private static Lease holdWithCompetitorOn(IndependentMasters m, int node, String[] keys, Supplier<Lease> hold) {
        if (node < 0) {
            return hold.get();
        }
        m.server(node).command("SET", keys[0], "competitor", "PX", "30000");
        try {
            return hold.get();
        } finally {
            m.server(node).command("DEL", keys[0]);
        }
    }

    private static void setCounters(IndependentMasters m, String[] keys, long[] counters) {
        for (int i = 0; i < counters.length; i++) {
            m.server(i).command("SET", keys[1], Long.toString(counters[i]));
        }
    }

    private static CompletableFuture<Object> failed() {
        return CompletableFuture.failedFuture(new LockConnectionException("faulty", "connection dropped", null));
    }

    /** The two tokens, and every node's counter when the first acquire returned. */
    record Tokens(long first, long second, long[] afterFirst) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Tokens t
                    && t.first == first
                    && t.second == second
                    && java.util.Arrays.equals(t.afterFirst, afterFirst);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(first, second, java.util.Arrays.hashCode(afterFirst));
        }

        @Override
        public String toString() {
            return "tokens " + first + " then " + second + ", counters after the first "
                    + java.util.Arrays.toString(afterFirst);
        }
    }

    /**
     * The socket transport, except on one node, where every call of one script goes through a fault
     * that is told the call's number (from 1) and how to send it.
     */
    static final class FaultyNode implements TransportFactory {
        /** What the n-th call of the script does instead of (or around) being sent. */
        @FunctionalInterface
        interface Fault {
            CompletableFuture<Object> apply(int call, Supplier<CompletableFuture<Object>> send);
        }

        final AtomicInteger calls = new AtomicInteger();
        private final int port;
        private final Script script;
        private final Fault fault;
        private final TransportFactory socket = new SocketTransport.Factory();

        FaultyNode(RedisServer node, Script script, Fault fault) {
            this.port = node.port();
            this.script = script;
            this.fault = fault;
        }

        /** The first call fails as a dropped connection would, without reaching the node; the rest are sent. */
        static CompletableFuture<Object> failFirst(int call, Supplier<CompletableFuture<Object>> send) {
            return call == 1 ? failed() : send.get();
        }

        @Override
        public Transport connect(TransportConfig config) {
            Transport delegate = socket.connect(config);
            return config.uri().hosts().get(0).port() == port ? new Faulty(delegate) : delegate;
        }

        private final class Faulty implements Transport {
            private final Transport delegate;

            Faulty(Transport delegate) {
                this.delegate = delegate;
            }

            @Override
            public CompletableFuture<Object> eval(Script s, String[] keys, String[] args) {
                if (!s.name().equals(script.name())) {
                    return delegate.eval(s, keys, args);
                }
                return fault.apply(calls.incrementAndGet(), () -> delegate.eval(s, keys, args));
            }

            @Override
            public CompletableFuture<Void> subscribe(String channel) {
                return delegate.subscribe(channel);
            }

            @Override
            public CompletableFuture<Void> unsubscribe(String channel) {
                return delegate.unsubscribe(channel);
            }

            @Override
            public void onMessage(BiConsumer<String, String> listener) {
                delegate.onMessage(listener);
            }

            @Override
            public void close() {
                delegate.close();
            }
        }
    }
}
