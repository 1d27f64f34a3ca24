package dev.dlock.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntUnaryOperator;
import java.util.regex.Pattern;

/**
 * A Redis Sentinel deployment of real processes on free loopback ports: one master, {@code N} replicas
 * ({@code --replicaof}) and three sentinels ({@code redis-server sentinel.conf --sentinel}, each with its own config
 * file in its own data directory) that monitor the master with quorum 2.
 *
 * <pre>{@code
 * try (SentinelSetup setup = SentinelSetup.builder().replicas(1).start()) {
 *     setup.currentMaster().kill();
 *     RedisServer promoted = setup.awaitFailover(Timing.scaled(Duration.ofSeconds(30)));
 * }
 * }</pre>
 *
 * <p>Every node, data node or sentinel, is a {@link RedisServer}: it can be {@linkplain RedisServer#kill() killed},
 * {@linkplain RedisServer#pause() paused} and {@linkplain RedisServer#restart() restarted} by pid, and it keeps its
 * port. {@link Builder#start()} returns once the replicas are in sync and every sentinel knows the master, every
 * replica and the two other sentinels, so a failover can start at once. Sentinels run with short timeouts by default
 * (down after 1 s, failover timeout 3 s); a sentinel refuses a second automatic failover of the same master for twice
 * the failover timeout. No password is supported yet.
 *
 * <p><b>Holding a replica back.</b> {@link #holdBack(RedisServer)} makes a write reach the master only, so that a
 * failover to that replica loses it (the negative control for acknowledged writes): pause the replica with SIGSTOP, then
 * have the master drop its replication link ({@code CLIENT KILL ADDR}); writes from then on stay on the master, since a
 * stopped replica cannot reconnect. Kill the master, then {@link HeldBackReplica#release() release} the replica: it
 * finds its link closed, cannot reach the dead master, and is promoted without the writes. Pausing alone is not enough
 * (the kernel buffers what the master sends and the replica applies it on SIGCONT), and neither is {@code DEBUG SLEEP}
 * or {@code CLIENT PAUSE}. Release the replica soon after killing the master: paused for longer than
 * {@code down-after-milliseconds}, the sentinels mark it down and may find no replica to promote until it answers
 * again.
 *
 * <p><b>Fronted nodes.</b> With {@link Builder#fronted(IntUnaryOperator)} every data node is reached by everyone else
 * through a port the caller provides (a TCP proxy in front of it, which can then cut the node off): the replicas
 * replicate from the master's front, the sentinels monitor it there, and each node announces its front ({@code
 * replica-announce-port}), so that the sentinels, and the clients they answer, see only front ports. {@link
 * #holdBack(RedisServer)} is not available then (the master sees the front's address, not the replica's).
 *
 * <p>This class is thread-safe: its nodes and fronts are fixed at start, and the master last seen by a failover is
 * guarded by {@code this}.
 */
public final class SentinelSetup implements AutoCloseable {

    /** How many sentinels run; a failover needs two of them to agree. */
    public static final int SENTINELS = 3;

    private static final int QUORUM = 2;
    private static final int START_ATTEMPTS = 3;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

    private final String masterName;
    private final List<RedisServer> dataNodes = new ArrayList<>(); // [0] is the initial master
    private final List<RedisServer> sentinels = new ArrayList<>();
    private final Map<RedisServer, Integer> fronts = new HashMap<>(); // filled at start, read-only afterwards
    private int lastMasterPort; // guarded by this

    private SentinelSetup(String masterName) {
        this.masterName = masterName;
    }

    /**
     * Returns a new builder: one replica, master name {@code dlock}, down after 1 s, failover timeout 3 s, no AOF.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    private void start(Builder builder) {
        RedisServer master = startDataNode(builder, null);
        for (int i = 0; i < builder.replicas; i++) {
            startDataNode(builder, master);
        }
        Duration timeout = Timing.scaled(READY_TIMEOUT);
        awaitInSync(master, timeout);
        // Sentinels start after the replicas are attached: a sentinel lists replicas from the master's INFO, which it
        // reads at once on connecting and then only every 10 s.
        for (int attempt = 1; sentinels.isEmpty(); attempt++) {
            try {
                startSentinels(builder, advertisedPort(master));
            } catch (IllegalStateException e) {
                NodeSupport.closeAll(sentinels);
                sentinels.clear();
                if (attempt == START_ATTEMPTS) {
                    throw e;
                }
            }
        }
        for (RedisServer sentinel : sentinels) {
            NodeSupport.await(timeout, "sentinel " + sentinel.port() + " to know every node", () -> knowsAll(sentinel));
        }
        synchronized (this) {
            lastMasterPort = master.port();
        }
    }

    /**
     * Starts one data node, a replica of {@code master} unless that is {@code null}. A fronted node gets its front once
     * it listens, announces it, and only then replicates, so that its master lists it at its front from the start.
     */
    private RedisServer startDataNode(Builder builder, RedisServer master) {
        RedisServer.Builder data = builder.dataNode.copy();
        if (master != null && builder.front == null) {
            data.extraArgs("--replicaof", NodeSupport.HOST, Integer.toString(master.port()));
        }
        RedisServer node = data.start();
        dataNodes.add(node);
        if (builder.front != null) {
            fronts.put(node, builder.front.applyAsInt(node.port()));
            announceFront(node);
            if (master != null) {
                node.command("REPLICAOF", NodeSupport.HOST, Integer.toString(advertisedPort(master)));
            }
        }
        return node;
    }

    /** A fronted node announces its front as its port, to its master (and so to the sentinels): again after a start. */
    private void announceFront(RedisServer node) {
        Integer front = fronts.get(node);
        if (front != null) {
            node.command("CONFIG", "SET", "replica-announce-port", Integer.toString(front));
        }
    }

    /**
     * Returns the port everyone else reaches a data node on: its front's with {@link Builder#fronted(IntUnaryOperator)},
     * else its own. The sentinels name masters by this port.
     *
     * @param node a data node of this setup
     * @return the port the sentinels, the replicas and the clients use for {@code node}
     * @throws IllegalArgumentException if {@code node} is not a data node of this setup
     */
    public int advertisedPort(RedisServer node) {
        requireDataNode(node);
        Integer front = fronts.get(node);
        return front != null ? front : node.port();
    }

    /**
     * Returns the data node the sentinels name by a port (its {@link #advertisedPort(RedisServer) advertised} one).
     *
     * @param port a port a sentinel answered with
     * @return the data node
     * @throws IllegalStateException if no data node is advertised on that port
     */
    public RedisServer nodeAdvertisedAt(int port) {
        for (RedisServer node : dataNodes) {
            if (advertisedPort(node) == port) {
                return node;
            }
        }
        throw new IllegalStateException("no data node of " + masterName + " is advertised on port " + port);
    }

    /**
     * Starts the sentinels on ports picked beforehand, each told the id and port of the two others ({@code sentinel
     * known-sentinel}): left to find each other through their hello messages, they would take two seconds more.
     */
    private void startSentinels(Builder builder, int masterPort) {
        List<Integer> ports = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        while (ports.size() < SENTINELS) {
            int port = RedisLauncher.freePort();
            if (!ports.contains(port)) {
                ports.add(port);
                ids.add(randomId());
            }
        }
        for (int i = 0; i < SENTINELS; i++) {
            StringBuilder config = new StringBuilder();
            config.append("sentinel myid ").append(ids.get(i)).append('\n');
            line(config, "monitor", NodeSupport.HOST + " " + masterPort + " " + QUORUM);
            line(config, "down-after-milliseconds", Long.toString(builder.downAfter.toMillis()));
            line(config, "failover-timeout", Long.toString(builder.failoverTimeout.toMillis()));
            line(config, "parallel-syncs", "1");
            for (int j = 0; j < SENTINELS; j++) {
                if (j != i) {
                    line(config, "known-sentinel", NodeSupport.HOST + " " + ports.get(j) + " " + ids.get(j));
                }
            }
            int port = ports.get(i);
            sentinels.add(RedisServer.builder()
                    .sentinel(config.toString())
                    .portPicker(() -> port)
                    .start());
        }
    }

    private void line(StringBuilder config, String option, String value) {
        config.append("sentinel ")
                .append(option)
                .append(' ')
                .append(masterName)
                .append(' ')
                .append(value)
                .append('\n');
    }

    private static String randomId() {
        StringBuilder id = new StringBuilder();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (id.length() < 40) {
            id.append(Character.forDigit(random.nextInt(16), 16));
        }
        return id.toString();
    }

    private Boolean knowsAll(RedisServer sentinel) {
        Map<String, String> master = NodeSupport.pairs(sentinel.command("SENTINEL", "MASTER", masterName));
        if (!"master".equals(master.get("flags"))
                || !Integer.toString(dataNodes.size() - 1).equals(master.get("num-slaves"))
                || !Integer.toString(SENTINELS - 1).equals(master.get("num-other-sentinels"))) {
            return null;
        }
        for (Object replica : (List<?>) sentinel.command("SENTINEL", "REPLICAS", masterName)) {
            Map<String, String> fields = NodeSupport.pairs(replica);
            if (!"slave".equals(fields.get("flags")) || !"ok".equals(fields.get("master-link-status"))) {
                return null;
            }
        }
        return Boolean.TRUE;
    }

    /**
     * Returns the name the sentinels monitor the master under.
     *
     * @return the master name, for example {@code dlock}
     */
    public String masterName() {
        return masterName;
    }

    /**
     * Returns the URI of the sentinels in the form the library accepts.
     *
     * @return {@code redis-sentinel://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3#name}
     */
    public String uri() {
        return NodeSupport.uri("redis-sentinel", sentinels) + "#" + masterName;
    }

    /**
     * Returns the data nodes in start order: the initial master first, then the initial replicas. Roles change with
     * failovers; ask {@link #currentMaster()} for the master of now.
     *
     * @return the master and replica servers, unmodifiable
     */
    public List<RedisServer> dataNodes() {
        return List.copyOf(dataNodes);
    }

    /**
     * Returns the master the setup was started with (which may no longer be the master).
     *
     * @return the initial master
     */
    public RedisServer initialMaster() {
        return dataNodes.get(0);
    }

    /**
     * Returns the replicas the setup was started with (one of which may have been promoted since).
     *
     * @return the initial replicas, unmodifiable
     */
    public List<RedisServer> initialReplicas() {
        return List.copyOf(dataNodes.subList(1, dataNodes.size()));
    }

    /**
     * Returns the three sentinels; each is a {@link RedisServer} (pid, kill, pause, restart, {@code command}) whose
     * {@code sentinel.conf} is in its {@link RedisServer#dataDir() data directory}.
     *
     * @return the sentinels, unmodifiable
     */
    public List<RedisServer> sentinels() {
        return List.copyOf(sentinels);
    }

    /**
     * Asks the sentinels ({@code SENTINEL GET-MASTER-ADDR-BY-NAME}), the first running and unpaused one that answers,
     * which data node is the master now.
     *
     * @return the data node the sentinels name as master
     * @throws IllegalStateException if no sentinel answers
     */
    public RedisServer currentMaster() {
        RuntimeException last = null;
        for (RedisServer sentinel : sentinels) {
            if (!NodeSupport.isUp(sentinel)) {
                continue;
            }
            try {
                return masterReportedBy(sentinel);
            } catch (RuntimeException e) {
                last = e;
            }
        }
        throw new IllegalStateException("no sentinel of " + masterName + " answered", last);
    }

    private RedisServer masterReportedBy(RedisServer sentinel) {
        List<?> address = (List<?>) sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", masterName);
        if (address == null) {
            throw new IllegalStateException("sentinel " + sentinel.port() + " does not know " + masterName);
        }
        return nodeAdvertisedAt(Integer.parseInt(String.valueOf(address.get(1))));
    }

    /**
     * Waits until every data node other than the current master that is running and not paused replicates from it with
     * its link up and has applied everything the master had written when the call began (its {@code slave_repl_offset}
     * reached the master's {@code master_repl_offset}) and acknowledges writes (a write and a {@code WAIT} on one
     * connection count them all), using a 30 s timeout scaled by {@link Timing}. Right after a
     * failover the old master, if running, counts as one of those replicas: the sentinels reconfigure it about 8 s after
     * it is back (or call {@link #rejoin(RedisServer)}).
     *
     * @throws IllegalStateException if they are not in sync within the timeout
     */
    public void awaitReplicasInSync() {
        awaitInSync(currentMaster(), Timing.scaled(READY_TIMEOUT));
    }

    private void awaitInSync(RedisServer master, Duration timeout) {
        List<RedisServer> replicas = new ArrayList<>();
        for (RedisServer node : dataNodes) {
            if (node != master && NodeSupport.isUp(node)) {
                replicas.add(node);
            }
        }
        // The replicas' own offsets, not WAIT: WAIT counts acknowledgements of its own connection's writes only.
        String masterPort = Integer.toString(advertisedPort(master));
        long offset = Long.parseLong(NodeSupport.info(master, "replication").get("master_repl_offset"));
        NodeSupport.await(timeout, replicas.size() + " replica(s) at offset " + offset + " of " + masterPort, () -> {
            for (RedisServer replica : replicas) {
                Map<String, String> info = NodeSupport.info(replica, "replication");
                if (!masterPort.equals(info.get("master_port"))
                        || !"up".equals(info.get("master_link_status"))
                        || Long.parseLong(info.get("slave_repl_offset")) < offset) {
                    return null;
                }
            }
            return Boolean.TRUE;
        });
        awaitAcknowledging(master, replicas.size(), timeout);
    }

    /**
     * Waits until a write and a {@code WAIT} on one connection count {@code replicas} acknowledgements. In sync is not
     * enough: after a (diskless) resynchronisation Redis 7.0 starts the replica's command stream, {@code REPLCONF
     * GETACK} included, only at the replica's first {@code ACK}, which it sends once a second; until then a lock
     * client's {@code WAIT} rightly counts the replica out.
     */
    private static void awaitAcknowledging(RedisServer master, int replicas, Duration timeout) {
        if (replicas == 0) {
            return;
        }
        try (RespConnection c = RespConnection.open(master.host(), master.port(), null, Duration.ofSeconds(5))) {
            NodeSupport.await(timeout, replicas + " replica(s) acknowledging writes of " + master, () -> {
                try {
                    c.call("SET", "dlock-testkit:ack-probe", "1");
                    Object acked = c.call("WAIT", Integer.toString(replicas), "200");
                    return acked instanceof Long && (Long) acked >= replicas ? Boolean.TRUE : null;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            c.call("DEL", "dlock-testkit:ack-probe");
        } catch (IOException e) {
            throw new UncheckedIOException("could not probe the replicas' acknowledgements on " + master, e);
        }
    }

    /**
     * Waits until a failover away from the master of the last failover (initially the initial master) has completed:
     * every running, unpaused sentinel names the same other data node, and that node reports {@code role:master}.
     *
     * @param timeout how long to wait (not scaled; pass {@link Timing#scaled(Duration)})
     * @return the new master
     * @throws IllegalStateException on timeout
     */
    public RedisServer awaitFailover(Duration timeout) {
        int previous;
        synchronized (this) {
            previous = lastMasterPort;
        }
        RedisServer promoted = NodeSupport.await(timeout, "a failover away from master " + previous, () -> {
            Set<RedisServer> named = new HashSet<>();
            for (RedisServer sentinel : sentinels) {
                if (NodeSupport.isUp(sentinel)) {
                    named.add(masterReportedBy(sentinel));
                }
            }
            if (named.size() != 1) {
                return null;
            }
            RedisServer candidate = named.iterator().next();
            boolean isMaster = candidate.port() != previous
                    && "master"
                            .equals(NodeSupport.info(candidate, "replication").get("role"));
            return isMaster ? candidate : null;
        });
        synchronized (this) {
            lastMasterPort = promoted.port();
        }
        return promoted;
    }

    /**
     * Asks a sentinel for a manual failover ({@code SENTINEL FAILOVER}, retried while the sentinel answers that a
     * failover is in progress or that no replica is fit yet) and waits for it as {@link #awaitFailover(Duration)} does,
     * within 30 s scaled by {@link Timing}. The old master keeps its role until the sentinels reconfigure it as a
     * replica, about 8 s later, unless you {@link #rejoin(RedisServer) rejoin} it first.
     *
     * @return the new master
     * @throws IllegalStateException if no failover completes in time
     */
    public RedisServer failover() {
        Duration timeout = Timing.scaled(READY_TIMEOUT);
        long start = System.nanoTime();
        NodeSupport.await(timeout, "a sentinel to accept SENTINEL FAILOVER " + masterName, () -> {
            RedisServer sentinel = sentinels.stream()
                    .filter(NodeSupport::isUp)
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no sentinel is up"));
            return sentinel.command("SENTINEL", "FAILOVER", masterName);
        });
        return awaitFailover(timeout.minusNanos(System.nanoTime() - start));
    }

    /**
     * Brings a data node back as a replica of the current master: starts it if it is not running and sends it
     * {@code REPLICAOF} at once, so that it neither serves as a second master nor waits for the sentinels to convert it.
     *
     * @param node a data node of this setup, not the current master
     * @return {@code node}
     * @throws IllegalArgumentException if {@code node} is not a data node of this setup or is the current master
     */
    public RedisServer rejoin(RedisServer node) {
        requireDataNode(node);
        RedisServer master = currentMaster();
        if (master == node) {
            throw new IllegalArgumentException(node + " is the current master");
        }
        if (node.isPaused()) {
            node.resume();
        }
        if (!node.isRunning()) {
            node.start();
            announceFront(node);
        }
        node.command("REPLICAOF", NodeSupport.HOST, Integer.toString(advertisedPort(master)));
        return node;
    }

    /**
     * Holds a replica back so that writes from now on reach its master only (the recipe is in the class comment):
     * pauses the replica (SIGSTOP) and makes the master close its replication link. Kill the master next, then
     * {@linkplain HeldBackReplica#release() release} the replica and {@link #awaitFailover(Duration) await the
     * failover}: the new master lacks every write made while it was held back.
     *
     * @param replica a running, unpaused replica of this setup, in sync with its master
     * @return the hold, to release (or close) once the master is dead
     * @throws IllegalArgumentException if {@code replica} is not a data node of this setup
     * @throws IllegalStateException if {@code replica} is not an attached replica, or the nodes are fronted
     */
    public HeldBackReplica holdBack(RedisServer replica) {
        requireDataNode(replica);
        if (!fronts.isEmpty()) {
            throw new IllegalStateException("holdBack needs unfronted nodes: a master sees its replica's front");
        }
        Map<String, String> info = NodeSupport.info(replica, "replication");
        if (!"slave".equals(info.get("role")) || !"up".equals(info.get("master_link_status"))) {
            throw new IllegalStateException(replica + " is not an attached replica: " + info);
        }
        RedisServer master = NodeSupport.byPort(dataNodes, Integer.parseInt(info.get("master_port")));
        String link = field(String.valueOf(replica.command("CLIENT", "LIST", "TYPE", "master")), "laddr");
        replica.pause();
        try {
            master.command("CLIENT", "KILL", "ADDR", link);
            NodeSupport.await(Timing.scaled(Duration.ofSeconds(5)), "master to drop link " + link, () -> {
                String links = String.valueOf(master.command("CLIENT", "LIST", "TYPE", "replica"));
                return links.contains("addr=" + link + " ") ? null : Boolean.TRUE;
            });
        } catch (RuntimeException e) {
            replica.resume();
            throw e;
        }
        return new HeldBackReplica(replica);
    }

    private static String field(String clientList, String name) {
        for (String part : clientList.trim().split("\\s+")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        throw new IllegalStateException("no " + name + " in CLIENT LIST reply: " + clientList);
    }

    private void requireDataNode(RedisServer node) {
        if (!dataNodes.contains(node)) {
            throw new IllegalArgumentException(node + " is not a data node of this setup");
        }
    }

    /** Closes every sentinel, then every data node, deleting their directories; idempotent. */
    @Override
    public void close() {
        List<RedisServer> all = new ArrayList<>(sentinels);
        all.addAll(dataNodes);
        NodeSupport.closeAll(all);
    }

    @Override
    public String toString() {
        return "SentinelSetup{" + masterName + ", data=" + dataNodes + ", sentinels=" + sentinels + "}";
    }

    /**
     * A replica paused by {@link SentinelSetup#holdBack(RedisServer)}, cut off from its master. Thread-safe.
     */
    public static final class HeldBackReplica implements AutoCloseable {

        private final RedisServer replica;
        private boolean released; // guarded by this

        private HeldBackReplica(RedisServer replica) {
            this.replica = replica;
        }

        /**
         * Returns the replica held back.
         *
         * @return the paused replica
         */
        public RedisServer replica() {
            return replica;
        }

        /** Resumes the replica (SIGCONT); it reconnects to its master if that is still alive. Idempotent. */
        public synchronized void release() {
            if (!released) {
                released = true;
                if (replica.isPaused()) {
                    replica.resume();
                }
            }
        }

        /** Same as {@link #release()}. */
        @Override
        public void close() {
            release();
        }
    }

    /**
     * Configures and starts a {@link SentinelSetup}.
     *
     * <p>Not thread-safe; use one builder per thread.
     */
    public static final class Builder {

        private int replicas = 1;
        private String masterName = "dlock";
        private Duration downAfter = Duration.ofSeconds(1);
        private Duration failoverTimeout = Duration.ofSeconds(3);
        private IntUnaryOperator front;
        // The setup's own options come first, so that extraArgs can override them.
        private final RedisServer.Builder dataNode = RedisServer.builder().extraArgs(NodeSupport.replicationArgs());

        private Builder() {}

        /**
         * Sets how many replicas the master has.
         *
         * @param replicas at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code replicas} is less than 1
         */
        public Builder replicas(int replicas) {
            if (replicas < 1) {
                throw new IllegalArgumentException("a sentinel setup needs at least one replica: " + replicas);
            }
            this.replicas = replicas;
            return this;
        }

        /**
         * Sets the name the sentinels monitor the master under.
         *
         * @param masterName letters, digits, {@code .}, {@code _} or {@code -}
         * @return this builder
         * @throws IllegalArgumentException if the name has other characters
         */
        public Builder masterName(String masterName) {
            if (!NAME.matcher(Objects.requireNonNull(masterName, "masterName")).matches()) {
                throw new IllegalArgumentException("master name must match " + NAME + ": '" + masterName + "'");
            }
            this.masterName = masterName;
            return this;
        }

        /**
         * Sets {@code sentinel down-after-milliseconds}: how long a node may not answer before a sentinel deems it down.
         *
         * @param downAfter at least 1 ms
         * @return this builder
         */
        public Builder downAfter(Duration downAfter) {
            this.downAfter = positive(downAfter, "downAfter");
            return this;
        }

        /**
         * Sets {@code sentinel failover-timeout}.
         *
         * @param failoverTimeout at least 1 ms
         * @return this builder
         */
        public Builder failoverTimeout(Duration failoverTimeout) {
            this.failoverTimeout = positive(failoverTimeout, "failoverTimeout");
            return this;
        }

        /**
         * Puts a front before every data node: called once per data node, right after it starts listening, with its
         * port, it returns the port everyone else is to reach that node on (typically a TCP proxy to it that the caller
         * started and closes after the setup). See the class comment.
         *
         * @param front from a data node's port to its front's port
         * @return this builder
         */
        public Builder fronted(IntUnaryOperator front) {
            this.front = Objects.requireNonNull(front, "front");
            return this;
        }

        /**
         * Enables AOF on the data nodes, as {@link RedisServer.Builder#aof(boolean)}.
         *
         * @param aof {@code true} to enable AOF
         * @return this builder
         */
        public Builder aof(boolean aof) {
            dataNode.aof(aof);
            return this;
        }

        /**
         * Appends raw {@code redis-server} arguments for the data nodes (not the sentinels); they follow the setup's
         * replication options ({@code repl-diskless-sync yes}, delay 0) and override them.
         *
         * @param args arguments passed through unchanged
         * @return this builder
         */
        public Builder extraArgs(String... args) {
            dataNode.extraArgs(args);
            return this;
        }

        /**
         * Starts the data nodes and the sentinels and waits until a failover could start (see the class comment).
         *
         * @return the running setup; close it when done
         * @throws IllegalStateException if a process does not start or the setup is not ready within 30 s (scaled)
         */
        public SentinelSetup start() {
            return NodeSupport.startOrClose(new SentinelSetup(masterName), setup -> setup.start(this));
        }

        /**
         * Returns a JUnit extension that starts a setup configured like this builder is now.
         *
         * @return the extension
         */
        public TopologyExtension<SentinelSetup> extension() {
            Builder copy = copy();
            return TopologyExtension.of(SentinelSetup.class, copy::start);
        }

        private Builder copy() {
            Builder copy = new Builder();
            copy.replicas = replicas;
            copy.masterName = masterName;
            copy.downAfter = downAfter;
            copy.failoverTimeout = failoverTimeout;
            copy.front = front;
            copy.dataNode.with(dataNode);
            return copy;
        }

        private static Duration positive(Duration duration, String name) {
            if (Objects.requireNonNull(duration, name).toMillis() < 1) {
                throw new IllegalArgumentException(name + " must be at least 1 ms: " + duration);
            }
            return duration;
        }
    }
}
