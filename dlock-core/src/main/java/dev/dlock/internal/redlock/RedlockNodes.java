package dev.dlock.internal.redlock;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.internal.options.ClientOptions;
import dev.dlock.internal.script.ScriptRunner;
import dev.dlock.internal.util.Controls;
import dev.dlock.internal.util.LockRuntime;
import dev.dlock.internal.util.Log;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * The independent masters of a Redlock client: one transport per node, and one script sent to every
 * node at once ({@link #fanOut}), each node's reply or failure collected in a {@link Round}.
 *
 * <p>Connections: the client starts with every node it can reach; for a node that could not be reached
 * at start, each round that meets it starts a connect (one at a time per node) and sends its script
 * once connected, within the round's command timeout. A transport that is connected reconnects on its
 * own, as every dlock transport does.
 *
 * <p>Thread-safe.
 */
final class RedlockNodes implements AutoCloseable {
    private final List<Node> nodes;
    private final int quorum;
    private final String maskedUris;
    private final Duration commandTimeout;
    private final ExecutorService connector;
    private final LockRuntime runtime;
    private volatile boolean closed;

    /** One master: its options (URI, transport factory), its transport once connected, its script runner. */
    private static final class Node {
        final ClientOptions options;
        final AtomicBoolean connecting = new AtomicBoolean();
        volatile CompletableFuture<ScriptRunner> reconnect; // the reconnect under way, or null
        volatile Transport transport;
        volatile ScriptRunner runner;

        Node(ClientOptions options) {
            this.options = options;
        }
    }

    /**
     * The replies of one round, by node index: the reply, the node's failure (a {@link RuntimeException},
     * already translated to dlock's exceptions), or null while the node has not answered. Guarded by its
     * own monitor while the round runs; read-only once {@link #fanOut}'s future completed it.
     */
    static final class Round {
        final Object[] replies;
        int answered;
        int failed;

        Round(int size) {
            this.replies = new Object[size];
        }

        int pending() {
            return replies.length - answered - failed;
        }

        /** The first failure among the nodes, for the cause of an exception; null if none failed. */
        RuntimeException firstFailure() {
            for (Object reply : replies) {
                if (reply instanceof RuntimeException e) {
                    return e;
                }
            }
            return null;
        }

        /** A summary of the failures, for messages: each failed node's message. */
        String failures() {
            List<String> out = new ArrayList<>();
            for (Object reply : replies) {
                if (reply instanceof RuntimeException e) {
                    out.add(e.getMessage());
                }
            }
            return String.join("; ", out);
        }
    }

    private RedlockNodes(List<ClientOptions> options, LockRuntime runtime) {
        List<Node> list = new ArrayList<>();
        for (ClientOptions o : options) {
            list.add(new Node(o));
        }
        this.nodes = List.copyOf(list);
        this.quorum = options.size() / 2 + 1;
        this.commandTimeout = options.get(0).commandTimeout();
        List<String> masked = new ArrayList<>();
        for (ClientOptions o : options) {
            masked.add(o.maskedUri());
        }
        this.maskedUris = String.join(",", masked);
        this.connector = runtime.newPool("dlock-redlock-connect");
        this.runtime = runtime;
    }

    /**
     * Connects to every node at once and returns when each has connected or failed. At least a quorum
     * must connect; the others are retried as rounds meet them, with a warning logged now.
     *
     * @throws LockConnectionException if fewer than a quorum of nodes can be reached
     * @throws LockAuthenticationException if a node refuses the credentials (a configuration error)
     */
    static RedlockNodes connect(List<ClientOptions> options, LockRuntime runtime) {
        RedlockNodes nodes = new RedlockNodes(options, runtime);
        List<CompletableFuture<Void>> connects = new ArrayList<>();
        for (Node node : nodes.nodes) {
            node.connecting.set(true);
            connects.add(CompletableFuture.runAsync(() -> nodes.connectNow(node), nodes.connector));
        }
        List<RuntimeException> failures = new ArrayList<>();
        for (CompletableFuture<Void> c : connects) {
            try {
                c.join();
            } catch (RuntimeException e) {
                failures.add(e.getCause() instanceof RuntimeException r ? r : e);
            }
        }
        for (RuntimeException f : failures) {
            if (f instanceof LockAuthenticationException) {
                nodes.close();
                throw f;
            }
        }
        if (nodes.size() - failures.size() < nodes.quorum) {
            nodes.close();
            throw new LockConnectionException(
                    nodes.maskedUris,
                    "Redlock needs " + nodes.quorum + " of " + nodes.size() + " nodes, only "
                            + (nodes.size() - failures.size()) + " could be reached",
                    failures.isEmpty() ? null : failures.get(0));
        }
        for (RuntimeException f : failures) {
            Log.LOG.log(
                    System.Logger.Level.WARNING,
                    "dlock Redlock client starts without a node it could not reach (retried as locks are used): {0}",
                    f.getMessage());
        }
        return nodes;
    }

    /** Connects one node on the calling thread; rethrows the failure after clearing the connecting flag. */
    private void connectNow(Node node) {
        try {
            ClientOptions o = node.options;
            Transport t = o.transport().connect(new TransportConfig(o.uri(), o.commandTimeout(), o.clientName()));
            node.runner = new ScriptRunner(t, o.maskedUri(), o.commandTimeout(), null, Controls.NONE, runtime.await());
            node.transport = t;
            if (closed) { // the client closed while this node connected
                node.transport = null;
                node.runner = null;
                t.close();
            }
        } finally {
            node.connecting.set(false);
        }
    }

    /**
     * The runner of a node that has no transport, once a reconnect (started now unless one is under
     * way) has connected it; fails as the connect does.
     */
    private CompletableFuture<ScriptRunner> reconnect(Node node) {
        if (node.connecting.compareAndSet(false, true)) {
            CompletableFuture<ScriptRunner> attempt = new CompletableFuture<>();
            node.reconnect = attempt;
            try {
                connector.execute(() -> {
                    try {
                        connectNow(node);
                        Log.LOG.log(
                                System.Logger.Level.INFO,
                                "dlock Redlock node {0} is reachable again",
                                node.options.maskedUri());
                        ScriptRunner runner = node.runner;
                        if (runner == null) {
                            throw new LockConnectionException(
                                    node.options.maskedUri(), "the Redlock client is closed", null);
                        }
                        attempt.complete(runner);
                    } catch (RuntimeException e) {
                        Log.LOG.log(
                                System.Logger.Level.DEBUG,
                                "dlock Redlock node {0} is still unreachable: {1}",
                                node.options.maskedUri(),
                                e.getMessage());
                        attempt.completeExceptionally(e);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                node.connecting.set(false); // closed
                attempt.completeExceptionally(
                        new LockConnectionException(node.options.maskedUri(), "the Redlock client is closed", e));
            }
            return attempt;
        }
        CompletableFuture<ScriptRunner> underWay = node.reconnect;
        ScriptRunner runner = node.runner;
        if (runner != null) {
            return CompletableFuture.completedFuture(runner);
        }
        return underWay != null
                ? underWay
                : CompletableFuture.failedFuture(new LockConnectionException(
                        node.options.maskedUri(), "Redlock node not connected (connecting)", null));
    }

    int size() {
        return nodes.size();
    }

    /** How many nodes make a quorum: N/2 + 1. */
    int quorum() {
        return quorum;
    }

    /** Every node's masked URI, comma-separated. */
    String maskedUris() {
        return maskedUris;
    }

    Duration commandTimeout() {
        return commandTimeout;
    }

    /**
     * Sends a script to every node at once. The future completes, never exceptionally, with the round
     * when every node has answered or failed (each within the command timeout), or as soon as {@code
     * enough} (checked after every reply, under the round's monitor) says the outcome is decided;
     * replies that arrive later are dropped.
     */
    CompletableFuture<Round> fanOut(Script script, String[] keys, String[] args, Predicate<Round> enough) {
        Round round = new Round(nodes.size());
        CompletableFuture<Round> done = new CompletableFuture<>();
        String key = keys.length > 0 ? keys[0] : script.name();
        for (int i = 0; i < nodes.size(); i++) {
            int index = i;
            Node node = nodes.get(i);
            ScriptRunner runner = node.runner;
            CompletableFuture<Object> reply;
            if (runner == null) { // unreachable so far: this round waits for a reconnect, within its timeout
                reply = runtime.within(
                        reconnect(node).thenCompose(r -> r.eval(script, keys, args)), commandTimeout.toMillis());
            } else {
                reply = runtime.within(runner.eval(script, keys, args), commandTimeout.toMillis());
            }
            reply.whenComplete((value, error) -> {
                Object entry = error == null ? value : translate(node, error, key);
                boolean complete;
                synchronized (round) {
                    if (done.isDone()) {
                        return;
                    }
                    round.replies[index] = entry;
                    if (error == null) {
                        round.answered++;
                    } else {
                        round.failed++;
                    }
                    complete = round.pending() == 0 || enough.test(round);
                }
                if (complete) {
                    done.complete(round);
                }
            });
        }
        return done;
    }

    private RuntimeException translate(Node node, Throwable error, String key) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause()
                : error;
        if (cause instanceof TimeoutException) {
            return new LockConnectionException(
                    node.options.maskedUri(), "no answer within " + commandTimeout + " about " + key, cause);
        }
        ScriptRunner runner = node.runner;
        if (runner == null) {
            return cause instanceof LockException e
                    ? e
                    : new LockConnectionException(node.options.maskedUri(), "command failed: " + cause, cause);
        }
        return runner.translate(cause, key);
    }

    /** Closes every transport and stops reconnecting; idempotent. */
    @Override
    public void close() {
        closed = true;
        connector.shutdownNow();
        for (Node node : nodes) {
            Transport t = node.transport;
            node.transport = null;
            node.runner = null;
            if (t != null) {
                try {
                    t.close();
                } catch (RuntimeException e) {
                    Log.LOG.log(
                            System.Logger.Level.WARNING,
                            "dlock Redlock node " + node.options.maskedUri() + " failed to close",
                            e);
                }
            }
        }
    }
}
