package dev.dlock.internal.client;

import dev.dlock.DistributedLock;
import dev.dlock.DistributedReadWriteLock;
import dev.dlock.DistributedSemaphore;
import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import dev.dlock.LockListener;
import dev.dlock.internal.lease.Leases;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.lease.Watchdog;
import dev.dlock.internal.multi.MultiLock;
import dev.dlock.internal.mutex.NameRelays;
import dev.dlock.internal.mutex.RedisDistributedLock;
import dev.dlock.internal.options.ClientOptions;
import dev.dlock.internal.permit.RedisReadWriteLock;
import dev.dlock.internal.permit.RedisSemaphore;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.script.ScriptRunner;
import dev.dlock.internal.script.SemaphoreKeys;
import dev.dlock.internal.script.ServerChecks;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.ClientClose;
import dev.dlock.internal.util.Controls;
import dev.dlock.internal.util.Events;
import dev.dlock.internal.util.LeaseTime;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.LockRuntime;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.Owners;
import dev.dlock.internal.util.ThreadHolds;
import dev.dlock.internal.util.Ticker;
import dev.dlock.internal.wait.AbortableWait;
import dev.dlock.internal.wait.AcquireContext;
import dev.dlock.internal.wait.WaitRoom;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The client: assembles the collaborators of one connection (docs/architecture.md) and owns their
 * lifecycle — one transport, one timer thread (watchdog rounds, wait timeouts, lease expiry), one
 * wait room, the gates and thread holds of this JVM. Nothing per lock name is kept once a lock is
 * neither held nor waited for. Thread-safe.
 */
public final class RedisLockClient implements LockClient {
    private final Transport transport;
    private final String maskedUri;
    private final String keyPrefix;
    private final int maxNameLength;
    private final long leaseMillis;
    private final Duration commandTimeout;
    private final LockRuntime runtime; // its clock, timer and pools
    private final ScheduledExecutorService scheduler;
    private final Lifecycle lifecycle;
    private final Owners owners;
    private final ScriptRunner scripts;
    private final Callbacks callbacks;
    private final Watchdog watchdog;
    private final Leases leases;
    private final AcquireContext acquirer;
    private final NameRelays gates;
    private final ThreadHolds holds = new ThreadHolds(); // of every kind: mutex, read-write views, multi-locks
    private final boolean multiLostPart; // the negative control Controls.Control.MULTI_LOST_PART
    private final LockAdmin admin;
    private final ClientClose closing;

    /**
     * @param tickerOrNull a clock of a unit test's, with {@code timerOrNull}; null for the options' runtime
     */
    private RedisLockClient(
            Transport transport,
            ClientOptions options,
            Owners owners,
            Ticker tickerOrNull,
            ScheduledExecutorService timerOrNull) {
        this.transport = transport;
        this.maskedUri = options.maskedUri();
        this.keyPrefix = options.keyPrefix();
        this.maxNameLength = options.maxNameLength();
        this.leaseMillis = options.leaseTime().toMillis();
        this.commandTimeout = options.commandTimeout();
        this.lifecycle = new Lifecycle(maskedUri);
        this.owners = owners;
        String timerName = "dlock-timer-" + owners.clientId().substring(0, 8);
        this.runtime = tickerOrNull == null
                ? LockRuntime.of(options.runtime(), timerName)
                : LockRuntime.of(tickerOrNull, timerOrNull, timerName);
        this.scheduler = runtime.timer();
        Ticker ticker = runtime.ticker();
        Controls controls = options.controls();
        this.multiLostPart = controls.has(Controls.Control.MULTI_LOST_PART);
        if (controls.any()) {
            Log.LOG.log(
                    System.Logger.Level.ERROR,
                    "dlock client {0} runs with the negative control {1}={2}: it can break mutual exclusion on"
                            + " purpose and is only for verification runs",
                    owners.clientId(),
                    Controls.PROPERTY,
                    System.getProperty(Controls.PROPERTY));
        }
        LeaseTime leaseTime = new LeaseTime(leaseMillis);
        Events events = Events.of(options.listeners());
        this.scripts =
                new ScriptRunner(transport, maskedUri, commandTimeout, options.replicaAck(), controls, runtime.await());
        this.callbacks = Callbacks.on(options.callbackExecutor(), runtime, owners.clientId(), lifecycle);
        this.watchdog = new Watchdog(scripts, ticker, transport, leaseTime, events);
        this.leases = new Leases(scripts, ticker, scheduler, callbacks, watchdog, lifecycle, events);
        WaitRoom waitRoom =
                new WaitRoom(transport, scheduler, ticker, controls.crossLockGrant(), commandTimeout.plusSeconds(1));
        this.acquirer = new AcquireContext(
                scripts,
                ticker,
                scheduler,
                waitRoom,
                leases,
                leaseTime,
                owners,
                !controls.expiredHandoff(),
                controls.has(Controls.Control.STALE_GRANT));
        this.gates = new NameRelays(acquirer, lifecycle, controls.expiredHandoff(), events);
        this.admin = new RedisLockAdmin(scripts, keyPrefix, maxNameLength, lifecycle);
        this.closing = new ClientClose(
                runtime, callbacks, commandTimeout.toMillis() + 1000, "dlock client " + owners.clientId());
        long interval = Math.max(1, leaseMillis / 3);
        scheduler.scheduleWithFixedDelay(this::watchdogTick, interval, interval, TimeUnit.MILLISECONDS);
    }

    /**
     * Connects a client with validated options and checks the connection with a {@code PING}.
     *
     * @param options the validated options
     * @return the connected client
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached within the command timeout
     * @throws dev.dlock.LockAuthenticationException if Redis refuses the credentials
     */
    public static LockClient connect(ClientOptions options) {
        Owners owners = new Owners(options.runtime().newClientId()); // checked before any I/O
        Transport transport = options.transport()
                .connect(new TransportConfig(options.uri(), options.commandTimeout(), options.clientName()));
        if (options.replicaAck() != null && !transport.waitsForReplicas()) {
            transport.close();
            throw new IllegalArgumentException("replicaAcks needs a transport that can wait for replicas; "
                    + transport.getClass().getName() + " cannot (" + options.maskedUri() + ")");
        }
        RedisLockClient client = new RedisLockClient(transport, options, owners, null, null);
        ServerChecks.warnOnEviction(client.scripts, client.lifecycle, options.maskedUri());
        return client;
    }

    /**
     * A client on a given transport, clock and scheduler (null: its own timer thread), for unit tests
     * that script the transport and move time by hand.
     */
    public static RedisLockClient on(
            Transport transport,
            long leaseMillis,
            Ticker ticker,
            ScheduledExecutorService scheduler,
            Executor callbacks,
            LockListener... listeners) {
        return on(transport, leaseMillis, ticker, scheduler, callbacks, null, listeners);
    }

    /** As {@link #on(Transport, long, Ticker, ScheduledExecutorService, Executor, LockListener...)}, with replicaAcks. */
    public static RedisLockClient on(
            Transport transport,
            long leaseMillis,
            Ticker ticker,
            ScheduledExecutorService scheduler,
            Executor callbacks,
            ReplicaAck replicaAck,
            LockListener... listeners) {
        ClientOptions options = new ClientOptions(
                RedisUri.parse("redis://test"),
                Duration.ofMillis(leaseMillis),
                "dlock",
                Duration.ofSeconds(2),
                "dlock",
                null,
                LockClient.Builder.MAX_NAME_LENGTH,
                callbacks,
                LockRuntime.SYSTEM,
                Controls.NONE,
                List.of(listeners),
                replicaAck);
        return new RedisLockClient(transport, options, new Owners(LockRuntime.SYSTEM.newClientId()), ticker, scheduler);
    }

    /** A client on a given transport and clock, with its own timer thread. */
    public static RedisLockClient on(Transport transport, long leaseMillis, Ticker ticker, Executor callbacks) {
        return on(transport, leaseMillis, ticker, null, callbacks);
    }

    @Override
    public DistributedLock lock(String name) {
        Args.name(name, maxNameLength);
        lifecycle.checkOpen();
        return new RedisDistributedLock(
                LockKeys.of(keyPrefix, name), gates, holds, owners, leaseMillis, scripts, callbacks, lifecycle);
    }

    @Override
    public DistributedSemaphore semaphore(String name, int permits) {
        Args.name(name, maxNameLength);
        RedisSemaphore.checkPermits("permits", permits);
        lifecycle.checkOpen();
        return new RedisSemaphore(
                SemaphoreKeys.of(keyPrefix, name), permits, acquirer, leaseMillis, callbacks, lifecycle);
    }

    @Override
    public DistributedReadWriteLock readWriteLock(String name) {
        Args.name(name, maxNameLength);
        lifecycle.checkOpen();
        return new RedisReadWriteLock(
                SemaphoreKeys.of(keyPrefix, name), acquirer, holds, leaseMillis, callbacks, lifecycle);
    }

    @Override
    public DistributedLock multiLock(String... names) {
        MultiLock multi = MultiLock.of(
                names, maxNameLength, this::lock, holds, callbacks, runtime.ticker(), lifecycle, !multiLostPart);
        lifecycle.checkOpen();
        return multi;
    }

    @Override
    public LockAdmin admin() {
        lifecycle.checkOpen();
        return admin;
    }

    @Override
    public String clientId() {
        return owners.clientId();
    }

    @Override
    public String redisUri() {
        return maskedUri;
    }

    @Override
    public void close() {
        closing.close(this::beginClose, this::endClose);
    }

    @Override
    public CompletableFuture<Void> closeAsync() {
        return closing.closeAsync(this::beginClose, this::endClose);
    }

    /** Refuses new work and starts the releases of every hold and queued wait. */
    private List<CompletableFuture<?>> beginClose() {
        lifecycle.close();
        gates.close();
        List<CompletableFuture<?>> releases = new ArrayList<>();
        for (AbortableWait waiting : acquirer.waitRoom.acquisitions()) {
            releases.add(waiting.abortForClose());
        }
        for (RedisLease lease : leases.held()) {
            lease.markReleasedForClose();
            releases.add(lease.kind().releaseInRedis(lease));
        }
        holds.clear();
        return releases;
    }

    private void endClose() {
        scheduler.shutdownNow();
        callbacks.shutdown(); // callbacks already handed to it still run
        transport.close();
    }

    /** How many lock names have a gate in this client (tests: idle gates go). */
    public int gateCount() {
        return gates.count();
    }

    /** One watchdog round (the timer's, or a test's): idle gates are swept, leases renewed or expired. */
    public void watchdogTick() {
        gates.sweep();
        try {
            watchdog.tick();
        } catch (RuntimeException e) {
            // The next round tries again; a lease that keeps failing is marked lost at its deadline.
            Log.LOG.log(System.Logger.Level.WARNING, "dlock watchdog round failed; the next round tries again", e);
        }
    }
}
