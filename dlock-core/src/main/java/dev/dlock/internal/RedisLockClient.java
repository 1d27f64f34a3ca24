package dev.dlock.internal;

import dev.dlock.DistributedLock;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client: one transport, one timer thread (watchdog and wait timeouts), one wait room, and the
 * thread-owned holds of this JVM. Nothing per lock name is kept once a lock is neither held nor
 * waited for.
 */
public final class RedisLockClient implements LockClient {

    private final Transport transport;
    private final ScriptRunner scripts;
    private final String maskedUri;
    private final String clientId = UUID.randomUUID().toString();
    private final long leaseMillis;
    private final String keyPrefix;
    private final Duration commandTimeout;
    private final int maxNameLength;
    private final Ticker ticker;
    private final ScheduledExecutorService scheduler;
    private final WaitRoom waitRoom;
    private final Watchdog watchdog;
    private final ConcurrentHashMap<HoldKey, ThreadHold> threadHolds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Gate> gates = new ConcurrentHashMap<>();
    private final AtomicLong leaseIds = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ThreadLocal<String> threadOwner = ThreadLocal.withInitial(
            () -> clientId + ":thread-" + Thread.currentThread().getId());
    private final String leaseMillisArg;
    private final String entryMillisArg;
    private final Controls controls;
    private final Executor callbacks;
    private final ExecutorService ownCallbacks; // null when the application gave the executor
    private final AtomicLong waitIds = new AtomicLong();
    private final Executor callbackRunner = this::callback; // one for every acquireAsync, not one each

    private RedisLockClient(
            Transport transport,
            String maskedUri,
            long leaseMillis,
            String keyPrefix,
            Duration commandTimeout,
            int maxNameLength,
            Ticker ticker,
            ScheduledExecutorService schedulerOrNull,
            Executor callbackExecutor,
            Controls controls) {
        this.transport = transport;
        this.scripts = new ScriptRunner(transport, maskedUri, commandTimeout);
        this.maskedUri = maskedUri;
        this.leaseMillis = leaseMillis;
        this.leaseMillisArg = Long.toString(leaseMillis);
        this.entryMillisArg = Long.toString(Acquisition.entryMillis(leaseMillis));
        this.keyPrefix = keyPrefix;
        this.commandTimeout = commandTimeout;
        this.maxNameLength = maxNameLength;
        this.ticker = ticker;
        this.scheduler = schedulerOrNull != null ? schedulerOrNull : timer(clientId);
        this.controls = controls;
        if (callbackExecutor != null) {
            this.callbacks = callbackExecutor;
            this.ownCallbacks = null;
        } else {
            this.ownCallbacks = callbackPool(clientId);
            this.callbacks = ownCallbacks;
        }
        if (controls.any()) {
            Log.LOG.log(
                    System.Logger.Level.ERROR,
                    "dlock client {0} runs with the negative control {1}={2}: it can break mutual exclusion on"
                            + " purpose and is only for verification runs",
                    clientId,
                    Controls.PROPERTY,
                    System.getProperty(Controls.PROPERTY));
        }
        this.waitRoom = new WaitRoom(transport, scheduler, ticker, controls.crossLockGrant());
        this.watchdog = new Watchdog(this);
        long interval = Math.max(1, leaseMillis / 3);
        scheduler.scheduleWithFixedDelay(this::watchdogTick, interval, interval, TimeUnit.MILLISECONDS);
    }

    /** The client's one timer thread: watchdog rounds, wait timeouts and refreshes, lease expiry. */
    private static ScheduledExecutorService timer(String clientId) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "dlock-timer-" + clientId.substring(0, 8));
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /**
     * The default callback executor: daemon threads made on demand and kept for a minute, so a
     * callback that blocks delays neither the transport's I/O threads nor other callbacks.
     */
    private static ExecutorService callbackPool(String clientId) {
        AtomicLong n = new AtomicLong();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "dlock-callback-" + clientId.substring(0, 8) + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Connects a client with validated options. Called by {@code LockClient.Builder}.
     *
     * @param options the options, validated
     * @return the connected client
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached
     * @throws LockException if no transport on the class path supports the URI
     */
    public static LockClient create(ClientOptions options) {
        Transport transport = options.transport()
                .connect(new TransportConfig(
                        options.redisUri(), options.maskedUri(), options.commandTimeout(), options.clientName()));
        RedisLockClient client = new RedisLockClient(
                transport,
                options.maskedUri(),
                options.leaseTime().toMillis(),
                options.keyPrefix(),
                options.commandTimeout(),
                options.maxNameLength(),
                Ticker.SYSTEM,
                null,
                options.callbackExecutor(),
                options.controls());
        ServerChecks.warnOnEviction(client, options.maskedUri());
        return client;
    }

    /** A client on a given transport and clock, for unit tests that script both. */
    static RedisLockClient on(Transport transport, long leaseMillis, Ticker ticker, Executor callbacks) {
        return on(transport, leaseMillis, ticker, null, callbacks);
    }

    /**
     * A client on a given transport, clock and scheduler (null: its own timer thread), for unit tests
     * that move time by hand.
     */
    static RedisLockClient on(
            Transport transport,
            long leaseMillis,
            Ticker ticker,
            ScheduledExecutorService scheduler,
            Executor callbacks) {
        return new RedisLockClient(
                transport,
                "redis://test",
                leaseMillis,
                "dlock",
                Duration.ofSeconds(2),
                512,
                ticker,
                scheduler,
                callbacks,
                Controls.NONE);
    }

    @Override
    public DistributedLock lock(String name) {
        Args.name(name, maxNameLength);
        checkOpen();
        return new RedisDistributedLock(this, LockKeys.of(keyPrefix, name));
    }

    @Override
    public String clientId() {
        return clientId;
    }

    @Override
    public String redisUri() {
        return maskedUri;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (Gate gate : gates.values()) {
            gate.close();
        }
        List<CompletableFuture<Boolean>> releases = new ArrayList<>();
        for (Acquisition waiting : waitRoom.acquisitions()) {
            releases.add(waiting.abortForClose());
        }
        for (RedisLease lease : new ArrayList<>(watchdog.leases())) {
            if (lease.isHeld()) {
                lease.markReleasedForClose();
                releases.add(releaseAsync(lease));
            }
        }
        threadHolds.clear();
        try {
            CompletableFuture.allOf(releases.toArray(new CompletableFuture<?>[0]))
                    .get(commandTimeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            Log.LOG.log(
                    System.Logger.Level.WARNING,
                    "dlock client {0} closed before Redis confirmed every release ({1}); the locks not released"
                            + " expire at the end of their lease time",
                    clientId,
                    e.toString());
        }
        scheduler.shutdownNow();
        if (ownCallbacks != null) {
            ownCallbacks.shutdown(); // callbacks already handed to it still run
        }
        transport.close();
    }

    void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the LockClient for " + maskedUri + " is closed");
        }
    }

    // ---- collaborators' access -------------------------------------------------------------

    Ticker ticker() {
        return ticker;
    }

    /** Runs the scripts and turns their failures into dlock's exceptions. */
    ScriptRunner scripts() {
        return scripts;
    }

    Controls controls() {
        return controls;
    }

    /**
     * Runs application code (asynchronous acquires' completions, loss listeners) off the transport's
     * and the timer's threads; inline, with a warning, if the executor refuses it.
     */
    void callback(Runnable task) {
        try {
            callbacks.execute(task);
        } catch (RejectedExecutionException e) {
            if (!(closed.get() && ownCallbacks != null)) { // our own pool refuses once closed: expected
                Log.LOG.log(
                        System.Logger.Level.WARNING,
                        "dlock's callback executor refused a task (" + e + "); running it on the calling thread");
            }
            task.run();
        }
    }

    Executor callbackExecutor() {
        return callbackRunner;
    }

    /** A new wait id, unique in this client: the hand-off message names it (WaitRoom). */
    String nextWaitId() {
        return Long.toString(waitIds.incrementAndGet(), 36);
    }

    ScheduledExecutorService scheduler() {
        return scheduler;
    }

    WaitRoom waitRoom() {
        return waitRoom;
    }

    long leaseMillis() {
        return leaseMillis;
    }

    Duration commandTimeout() {
        return commandTimeout;
    }

    String keyPrefix() {
        return keyPrefix;
    }

    int slot(String key) {
        return transport.slot(key);
    }

    ConcurrentHashMap<HoldKey, ThreadHold> threadHolds() {
        return threadHolds;
    }

    String newLeaseOwner() {
        return clientId + ":lease-" + leaseIds.incrementAndGet();
    }

    /** The owner id of the calling thread, built once per thread and client. */
    String threadOwner() {
        return threadOwner.get();
    }

    /** A lease time as the scripts take it, in milliseconds; built once for the client's lease time. */
    String leaseArg(long leaseMillis) {
        return leaseMillis == this.leaseMillis ? leaseMillisArg : Long.toString(leaseMillis);
    }

    /** The queue entry lifetime of acquires with this lease time, as the scripts take it. */
    String entryArg(long leaseMillis) {
        return leaseMillis == this.leaseMillis ? entryMillisArg : Long.toString(Acquisition.entryMillis(leaseMillis));
    }

    RedisLease newLease(
            LockKeys keys, String owner, long token, long leaseMillis, boolean renewed, long sentAt, Gate gate) {
        RedisLease lease = new RedisLease(this, keys, owner, token, leaseMillis, renewed, ticker, sentAt, gate);
        watchdog.add(lease);
        if (!renewed) {
            long delay = lease.deadline() - ticker.nanos();
            scheduler.schedule(
                    () -> lease.expire("its fixed lease time of " + leaseMillis + " ms ran out"),
                    Math.max(0, delay),
                    TimeUnit.NANOSECONDS);
        }
        if (closed.get()) {
            lease.releaseQuietly(); // closed while the acquire was in flight
        }
        return lease;
    }

    /** A relayed lease (Gate): watchdog-renewed, so it needs no expiry timer of its own. */
    RedisLease relayLease(RedisLease from, long token) {
        RedisLease lease = from.relayTo(token);
        watchdog.add(lease);
        if (closed.get()) {
            lease.releaseQuietly();
        }
        return lease;
    }

    /**
     * Lines an acquire up at its lock's gate in this client (acting in Redis at once when nobody of
     * this client is at the lock).
     */
    Gate.Turn enter(LockKeys keys, String owner, long leaseMillis, boolean renewed, long waitNanos) {
        Gate.Turn turn = new Gate.Turn(owner, leaseMillis, renewed, waitNanos, ticker.nanos());
        while (true) {
            Gate gate = gates.get(keys.name());
            if (gate == null) {
                Gate fresh = new Gate(this, keys);
                gate = gates.putIfAbsent(keys.name(), fresh);
                if (gate == null) {
                    gate = fresh;
                }
            }
            if (gate.admit(turn)) {
                return turn;
            }
            gates.remove(keys.name(), gate); // dead: it is leaving the map; the next loop makes a new one
        }
    }

    void removeGate(String name, Gate gate) {
        gates.remove(name, gate);
    }

    boolean isClosed() {
        return closed.get();
    }

    CompletableFuture<Boolean> renewNow(RedisLease lease) {
        return watchdog.renewNow(lease);
    }

    void forget(RedisLease lease) {
        watchdog.remove(lease);
    }

    CompletableFuture<Boolean> releaseAsync(RedisLease lease) {
        return releaseOwner(lease.keys(), lease.owner());
    }

    /** Owner-checked release; also takes the owner out of the lock's queue if it waits there. */
    CompletableFuture<Boolean> releaseOwner(LockKeys keys, String owner) {
        return scripts.eval(Scripts.RELEASE, keys.scriptKeys(), new String[] {owner})
                .thenApply(reply -> ((Long) reply) >= 1L); // 2: released and handed over
    }

    /**
     * Sends an owner-checked release for an acquire whose outcome is unknown (it timed out or its
     * connection failed), without waiting: Redis runs it after that acquire, so a lock the acquire
     * took anyway is freed at once instead of blocking everyone until its lease runs out.
     */
    void releaseOwnerQuietly(LockKeys keys, String owner) {
        if (!closed.get()) {
            releaseOwner(keys, owner).whenComplete((ok, error) -> {
                if (error != null) {
                    Log.LOG.log(
                            System.Logger.Level.WARNING,
                            "dlock could not undo an acquire of {0} whose outcome is unknown ({1}); if it took the"
                                    + " lock or queued, that ends when its lease or queue entry runs out",
                            keys.lock(),
                            error.toString());
                }
            });
        }
    }

    /** How many lock names have a gate in this client (tests: idle gates go). */
    int gateCount() {
        return gates.size();
    }

    /** One watchdog round: idle gates are swept, leases renewed or expired. */
    void watchdogTick() {
        for (Gate gate : gates.values()) {
            gate.sweep();
        }
        try {
            watchdog.tick();
        } catch (RuntimeException e) {
            // The next round tries again; a lease that keeps failing is marked lost at its deadline.
            Log.LOG.log(System.Logger.Level.WARNING, "dlock watchdog round failed; the next round tries again", e);
        }
    }

    /**
     * A thread's hold on a lock name. Keyed by both: a thread whose hold was lost finds it again at its
     * unlock (and gets the loss), even when another thread of this client has taken the lock since.
     */
    record HoldKey(String name, Thread thread) {}

    /** The hold of one thread on one lock name through the Lock interface. */
    static final class ThreadHold {
        final HoldKey key;
        final RedisLease lease;
        int count = 1; // only touched by the holding thread

        ThreadHold(HoldKey key, RedisLease lease) {
            this.key = key;
            this.lease = lease;
        }
    }
}
