package dev.dlock.internal.redlock;

import dev.dlock.DistributedLock;
import dev.dlock.DistributedReadWriteLock;
import dev.dlock.DistributedSemaphore;
import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import dev.dlock.internal.multi.MultiLock;
import dev.dlock.internal.options.ClientOptions;
import dev.dlock.internal.options.RedlockOptions;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.ClientClose;
import dev.dlock.internal.util.Controls;
import dev.dlock.internal.util.Events;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.LockRuntime;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.Owners;
import dev.dlock.internal.util.ThreadHolds;
import dev.dlock.internal.util.Ticker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A Redlock client over independent masters (docs/redlock.md): assembles the nodes, one timer thread
 * (watchdog rounds, retries of waits, lease expiry), the callback executor and the locks. Every
 * watchdog round renews each watchdog-renewed lease on every node ({@link RedlockLease#renew}).
 * Thread-safe.
 */
public final class RedlockClient implements LockClient {
    private final RedlockContext ctx;
    private final RedlockAcquirer acquirer;
    private final RedlockAdmin admin;
    private final String keyPrefix;
    private final int maxNameLength;
    private final ThreadHolds holds = new ThreadHolds(); // of its locks and its multi-locks
    private final ClientClose closing;
    private static final Comparator<RedlockLease> BY_NAME_AND_OWNER =
            Comparator.comparing(RedlockLease::lockName).thenComparing(RedlockLease::owner);

    private RedlockClient(RedlockNodes nodes, ClientOptions options, Owners owners, LockRuntime runtime) {
        Lifecycle lifecycle = new Lifecycle(nodes.maskedUris());
        ScheduledExecutorService timer = runtime.timer();
        this.ctx = new RedlockContext(
                nodes,
                runtime.ticker(),
                timer,
                runtime,
                Callbacks.on(options.callbackExecutor(), runtime, owners.clientId(), lifecycle),
                Events.of(options.listeners()),
                lifecycle,
                owners,
                ConcurrentHashMap.newKeySet(),
                new ConcurrentLinkedQueue<>(), // in the order they began, for the close
                options.leaseTime().toMillis());
        Controls controls = options.controls();
        if (controls.any()) {
            Log.LOG.log(
                    System.Logger.Level.ERROR,
                    "dlock client {0} runs with the negative control {1}={2}: it can break mutual exclusion on"
                            + " purpose and is only for verification runs",
                    owners.clientId(),
                    Controls.PROPERTY,
                    System.getProperty(Controls.PROPERTY));
        }
        this.acquirer = new RedlockAcquirer(ctx, controls.redlockPartialFence(), controls.redlockMinorityRenewal());
        this.keyPrefix = options.keyPrefix();
        this.maxNameLength = options.maxNameLength();
        this.admin = new RedlockAdmin(ctx, keyPrefix, maxNameLength);
        long interval = Math.max(1, ctx.leaseMillis() / 3);
        this.closing = new ClientClose(
                runtime,
                ctx.callbacks(),
                nodes.commandTimeout().toMillis() + 1000,
                "dlock Redlock client " + owners.clientId());
        timer.scheduleWithFixedDelay(this::watchdogTick, interval, interval, TimeUnit.MILLISECONDS);
    }

    /**
     * Connects to every node (a script runner per node) and builds the client; at least a quorum
     * (N/2 + 1) must be reachable, the others are retried as locks are used.
     *
     * @param options the validated options, one set per node
     * @return the connected client
     * @throws dev.dlock.LockConnectionException if fewer than a quorum of nodes can be reached
     * @throws dev.dlock.LockAuthenticationException if a node refuses the credentials
     */
    public static LockClient connect(RedlockOptions options) {
        Owners owners = new Owners(options.nodes().get(0).runtime().newClientId());
        return connect(
                options,
                owners,
                LockRuntime.of(
                        options.nodes().get(0).runtime(),
                        "dlock-redlock-timer-" + owners.clientId().substring(0, 8)));
    }

    /** As {@link #connect(RedlockOptions)}, on the given clock (tests). */
    static RedlockClient connect(RedlockOptions options, Ticker ticker) {
        Owners owners = new Owners(LockRuntime.SYSTEM.newClientId());
        return connect(
                options,
                owners,
                LockRuntime.of(
                        ticker, null, "dlock-redlock-timer-" + owners.clientId().substring(0, 8)));
    }

    private static RedlockClient connect(RedlockOptions options, Owners owners, LockRuntime runtime) {
        RedlockNodes nodes;
        try {
            nodes = RedlockNodes.connect(options.nodes(), runtime);
        } catch (RuntimeException e) {
            runtime.timer().shutdownNow();
            throw e;
        }
        return new RedlockClient(nodes, options.nodes().get(0), owners, runtime);
    }

    @Override
    public DistributedLock lock(String name) {
        Args.name(name, maxNameLength);
        ctx.lifecycle().checkOpen();
        return new RedlockLock(ctx, acquirer, keyPrefix, name, holds);
    }

    @Override
    public DistributedLock multiLock(String... names) {
        MultiLock multi = MultiLock.of(
                names, maxNameLength, this::lock, holds, ctx.callbacks(), ctx.ticker(), ctx.lifecycle(), true);
        ctx.lifecycle().checkOpen();
        return multi;
    }

    /**
     * Not supported: a semaphore's holders and queue would have to be agreed by a quorum of independent
     * masters, with grants from the head of one queue kept on every node; that is not built (docs/redlock.md).
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public DistributedSemaphore semaphore(String name, int permits) {
        throw new UnsupportedOperationException("the Redlock client does not support semaphores: a holder set and"
                + " FIFO queue agreed by a quorum of independent masters is not built (docs/lock-family.md)");
    }

    /**
     * Not supported: read and write holders and a FIFO queue agreed by a quorum of independent masters
     * are not built, as for the semaphore (docs/lock-family.md).
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public DistributedReadWriteLock readWriteLock(String name) {
        throw new UnsupportedOperationException("the Redlock client does not support read-write locks: holders and a"
                + " FIFO queue agreed by a quorum of independent masters are not built (docs/lock-family.md)");
    }

    @Override
    public LockAdmin admin() {
        ctx.lifecycle().checkOpen();
        return admin;
    }

    @Override
    public String clientId() {
        return ctx.owners().clientId();
    }

    /**
     * Returns every node's masked URI, comma-separated.
     *
     * @return the masked URIs
     */
    @Override
    public String redisUri() {
        return ctx.nodes().maskedUris();
    }

    /** One watchdog round: every watchdog-renewed lease is renewed on every node, all at once. */
    void watchdogTick() {
        for (RedlockLease lease : held()) {
            if (lease.isWatchdogRenewed()) {
                lease.renew().exceptionally(e -> {
                    Log.LOG.log(
                            System.Logger.Level.WARNING, "dlock Redlock renewal failed; the next round tries again", e);
                    return null;
                });
            }
        }
    }

    /**
     * The leases held now, by name and owner id: one order whatever the JVM's identity hashes (the set's own
     * order), so that a client on a simulated runtime repeats its run.
     */
    private List<RedlockLease> held() {
        List<RedlockLease> leases = new ArrayList<>(ctx.held());
        leases.sort(BY_NAME_AND_OWNER);
        return leases;
    }

    @Override
    public void close() {
        closing.close(this::beginClose, this::endClose);
    }

    @Override
    public CompletableFuture<Void> closeAsync() {
        return closing.closeAsync(this::beginClose, this::endClose);
    }

    /** Refuses new work, gives up the waits and starts the releases of every hold. */
    private List<CompletableFuture<?>> beginClose() {
        ctx.lifecycle().close();
        for (CompletableFuture<?> wait : ctx.waits()) {
            wait.cancel(false);
        }
        List<CompletableFuture<?>> releases = new ArrayList<>();
        for (RedlockLease lease : held()) {
            releases.add(lease.releaseForClose());
        }
        holds.clear();
        return releases;
    }

    private void endClose() {
        ctx.timer().shutdownNow();
        ctx.callbacks().shutdown();
        ctx.nodes().close();
    }
}
