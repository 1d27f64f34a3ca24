package dev.dlock.testkit;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A local Redis Cluster of real processes on free loopback ports: {@code M} masters (3 by default) sharing the 16384
 * slots in equal ranges, and optionally {@code R} replicas per master.
 *
 * <pre>{@code
 * try (ClusterSetup cluster = ClusterSetup.builder().replicasPerMaster(1).start()) {
 *     RedisServer owner = cluster.nodeForSlot(ClusterSetup.slotOf("lock:a"));
 *     owner.command("SET", "lock:a", "token");
 * }
 * }</pre>
 *
 * <p>The cluster is created as {@code redis-cli --cluster create} would, but without {@code redis-cli} (which the
 * embedded 6.2 fallback does not ship): {@code CLUSTER SET-CONFIG-EPOCH} on each node, {@code CLUSTER ADDSLOTSRANGE}
 * on the masters ({@code CLUSTER ADDSLOTS} with every slot listed on Redis 6.2, which lacks ADDSLOTSRANGE),
 * {@code CLUSTER MEET} between every pair of nodes, {@code CLUSTER REPLICATE} on the replicas, then
 * {@link Builder#start()} waits until every node reports {@code cluster_state:ok}, all nodes agree on who owns which
 * slot and which replica follows which master, and every replica's link is up. That takes about 3 s: a master does
 * not report {@code ok} before it has run for 2 s. Each node is a {@link RedisServer} (pid, kill, pause, restart on the same
 * port; its {@code nodes.conf} in its data directory keeps its identity across restarts). Nodes listen on ports below
 * 22768 whose bus port ({@code +10000}) is free too. No password is supported yet.
 *
 * <p>This class is thread-safe: its nodes and their ids are fixed at start, and every query asks the nodes.
 */
public final class ClusterSetup implements AutoCloseable {

    /** The number of hash slots of a Redis Cluster. */
    public static final int SLOTS = 16384;

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final int KEYS_PER_MIGRATE = 100;
    private static final String MIGRATE_TIMEOUT_MILLIS = "5000";

    private final List<RedisServer> nodes = new ArrayList<>(); // initial masters first, then their replicas
    private final Map<RedisServer, String> ids = new HashMap<>();

    private ClusterSetup() {}

    /**
     * Returns a new builder: 3 masters, no replicas, node timeout 2 s, no AOF.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    private void start(Builder builder) {
        RedisServer.Builder template =
                builder.node.copy().extraArgs("--cluster-node-timeout", Long.toString(builder.nodeTimeout.toMillis()));
        int total = builder.masters * (1 + builder.replicasPerMaster);
        for (int i = 0; i < total; i++) {
            RedisServer node = template.copy().start();
            nodes.add(node);
            ids.put(node, String.valueOf(node.command("CLUSTER", "MYID")));
            // Distinct epochs, as redis-cli sets them, spare the nodes resolving a collision at epoch 0.
            node.command("CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
        }
        for (int m = 0; m < builder.masters; m++) {
            addSlots(nodes.get(m), m * SLOTS / builder.masters, (m + 1) * SLOTS / builder.masters - 1);
        }
        // Every pair meets directly: spreading the nodes by gossip from one MEET each takes about a second longer.
        for (int i = 0; i < total; i++) {
            for (RedisServer other : nodes.subList(i + 1, total)) {
                nodes.get(i).command("CLUSTER", "MEET", NodeSupport.HOST, Integer.toString(other.port()));
            }
        }
        Duration timeout = Timing.scaled(READY_TIMEOUT);
        for (RedisServer node : nodes) {
            NodeSupport.await(timeout, "node " + node.port() + " to know all " + total + " nodes", () -> {
                List<NodeLine> view = NodeLine.parse(node.command("CLUSTER", "NODES"));
                boolean all = view.size() == total
                        && view.stream().noneMatch(line -> line.has("handshake") || line.has("noaddr"));
                return all ? Boolean.TRUE : null;
            });
        }
        for (int r = builder.masters; r < total; r++) {
            RedisServer master = nodes.get(r % builder.masters);
            nodes.get(r).command("CLUSTER", "REPLICATE", ids.get(master));
        }
        NodeSupport.await(timeout, "the cluster to be ok with every replica attached", () -> {
            List<NodeLine> view = agreedView();
            if (view == null || view.stream().filter(line -> line.has("slave")).count() != total - builder.masters) {
                return null;
            }
            for (RedisServer replica : nodes.subList(builder.masters, total)) {
                if (!"up".equals(NodeSupport.info(replica, "replication").get("master_link_status"))) {
                    return null;
                }
            }
            return Boolean.TRUE;
        });
    }

    private static void addSlots(RedisServer master, int first, int last) {
        if (RedisBinary.major(master.version()) >= 7) {
            master.command("CLUSTER", "ADDSLOTSRANGE", Integer.toString(first), Integer.toString(last));
            return;
        }
        List<String> args = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
        for (int slot = first; slot <= last; slot++) {
            args.add(Integer.toString(slot));
        }
        master.command(args.toArray(new String[0]));
    }

    /**
     * Returns the hash slot of {@code key} as Redis computes it: CRC16 (XMODEM) of the key's UTF-8 bytes modulo 16384,
     * or of its hash tag only, the bytes between the first {@code {}} and the first {@code }} after it, when that is
     * not empty.
     *
     * @param key the key
     * @return the slot, from 0 to 16383
     */
    public static int slotOf(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int from = 0;
        int to = bytes.length;
        int open = indexOf(bytes, (byte) '{', 0);
        if (open >= 0) {
            int close = indexOf(bytes, (byte) '}', open + 1);
            if (close > open + 1) {
                from = open + 1;
                to = close;
            }
        }
        return crc16(bytes, from, to) & (SLOTS - 1);
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    /** CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0, as in Redis's crc16.c. */
    static int crc16(byte[] bytes, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc ^= (bytes[i] & 0xff) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            crc &= 0xffff;
        }
        return crc;
    }

    /**
     * Returns every node in start order: the initial masters first, then the replicas (replica {@code i} of the list
     * of replicas follows initial master {@code i % masters}). Roles change with failovers.
     *
     * @return the nodes, unmodifiable
     */
    public List<RedisServer> nodes() {
        return List.copyOf(nodes);
    }

    /**
     * Returns a seed URI listing every node, in the form the library accepts.
     *
     * @return {@code redis-cluster://127.0.0.1:p1,127.0.0.1:p2,...}
     */
    public String seedUri() {
        return NodeSupport.uri("redis-cluster", nodes);
    }

    /**
     * Returns the cluster node id of {@code node} (stable across restarts).
     *
     * @param node a node of this cluster
     * @return its 40-character id
     * @throws IllegalArgumentException if {@code node} is not a node of this cluster
     */
    public String nodeId(RedisServer node) {
        String id = ids.get(node);
        if (id == null) {
            throw new IllegalArgumentException(node + " is not a node of this cluster");
        }
        return id;
    }

    /**
     * Returns the masters that own slots now, as the first running and unpaused node sees them, in slot order.
     *
     * @return the masters owning slots
     */
    public List<RedisServer> masters() {
        List<RedisServer> masters = new ArrayList<>();
        view().stream()
                .filter(line -> !line.slots.isEmpty())
                .sorted((a, b) -> Integer.compare(a.slots.get(0)[0], b.slots.get(0)[0]))
                .forEach(line -> masters.add(NodeSupport.byPort(nodes, line.port)));
        return masters;
    }

    /**
     * Returns the replicas of {@code master} now, as the first running and unpaused node sees them.
     *
     * @param master a node of this cluster
     * @return its replicas, possibly none
     */
    public List<RedisServer> replicasOf(RedisServer master) {
        String id = nodeId(master);
        List<RedisServer> replicas = new ArrayList<>();
        for (NodeLine line : view()) {
            if (line.has("slave") && id.equals(line.masterId)) {
                replicas.add(NodeSupport.byPort(nodes, line.port));
            }
        }
        return replicas;
    }

    /**
     * Returns the master that owns {@code slot}, as the first running and unpaused node sees it
     * ({@code CLUSTER NODES}).
     *
     * @param slot from 0 to 16383
     * @return the owner
     * @throws IllegalArgumentException if {@code slot} is out of range
     * @throws IllegalStateException if no node owns it
     */
    public RedisServer nodeForSlot(int slot) {
        checkSlot(slot);
        for (NodeLine line : view()) {
            if (line.owns(slot)) {
                return NodeSupport.byPort(nodes, line.port);
            }
        }
        throw new IllegalStateException("no node owns slot " + slot);
    }

    /**
     * Moves {@code slot} and its keys from {@code from} to {@code to}, as {@code redis-cli --cluster reshard} does:
     * {@code CLUSTER SETSLOT IMPORTING} on {@code to}, {@code MIGRATING} on {@code from}, {@code MIGRATE} of the keys in
     * batches of 100, then {@code CLUSTER SETSLOT NODE} on {@code to}, {@code from} and every other master; returns
     * once every node agrees on the new owner (30 s timeout, scaled). Afterwards {@code from} answers commands on the
     * slot's keys with {@code MOVED slot 127.0.0.1:<to's port>}.
     *
     * @param slot the slot, owned by {@code from}
     * @param from the master owning the slot
     * @param to the master to own it
     * @return how many keys were moved
     * @throws IllegalArgumentException if a node is not part of this cluster or the slot is out of range
     * @throws RedisErrorReply if a node refuses a step
     */
    public int migrateSlot(int slot, RedisServer from, RedisServer to) {
        checkSlot(slot);
        String fromId = nodeId(from);
        String toId = nodeId(to);
        String slotArg = Integer.toString(slot);
        to.command("CLUSTER", "SETSLOT", slotArg, "IMPORTING", fromId);
        from.command("CLUSTER", "SETSLOT", slotArg, "MIGRATING", toId);
        int moved = 0;
        while (true) {
            List<?> keys =
                    (List<?>) from.command("CLUSTER", "GETKEYSINSLOT", slotArg, Integer.toString(KEYS_PER_MIGRATE));
            if (keys.isEmpty()) {
                break;
            }
            List<String> args = new ArrayList<>(List.of(
                    "MIGRATE", NodeSupport.HOST, Integer.toString(to.port()), "", "0", MIGRATE_TIMEOUT_MILLIS, "KEYS"));
            keys.forEach(key -> args.add(String.valueOf(key)));
            from.command(args.toArray(new String[0]));
            moved += keys.size();
        }
        List<RedisServer> owners = new ArrayList<>(List.of(to, from));
        for (RedisServer master : masters()) {
            if (!owners.contains(master) && NodeSupport.isUp(master)) {
                owners.add(master);
            }
        }
        for (RedisServer master : owners) {
            master.command("CLUSTER", "SETSLOT", slotArg, "NODE", toId);
        }
        NodeSupport.await(Timing.scaled(READY_TIMEOUT), "every node to see slot " + slot + " on " + to.port(), () -> {
            List<NodeLine> view = agreedView();
            return view != null && view.stream().anyMatch(line -> line.port == to.port() && line.owns(slot))
                    ? Boolean.TRUE
                    : null;
        });
        return moved;
    }

    /**
     * Promotes a replica of {@code master} with a manual failover ({@code CLUSTER FAILOVER} sent to the replica, which
     * waits until it has caught up with the master) and waits until every node agrees that it owns the master's slots
     * (30 s timeout, scaled). The old master becomes its replica.
     *
     * @param master a master with at least one running, unpaused replica
     * @return the promoted replica
     * @throws IllegalStateException if {@code master} has no such replica or the failover does not complete in time
     */
    public RedisServer failover(RedisServer master) {
        RedisServer replica = replicasOf(master).stream()
                .filter(NodeSupport::isUp)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(master + " has no running replica to promote"));
        replica.command("CLUSTER", "FAILOVER");
        NodeSupport.await(Timing.scaled(READY_TIMEOUT), "replica " + replica.port() + " to take over", () -> {
            List<NodeLine> view = agreedView();
            return view != null && view.stream().anyMatch(line -> line.port == replica.port() && !line.slots.isEmpty())
                    ? Boolean.TRUE
                    : null;
        });
        return replica;
    }

    /**
     * Waits until another node owns the slots of {@code master}, which was killed or paused, and every running, unpaused
     * node agrees and reports {@code cluster_state:ok}. The nodes notice the failure after {@code cluster-node-timeout}
     * ({@link Builder#nodeTimeout(Duration)}); a replica of the master then wins an election and takes its slots.
     *
     * @param master a master owning slots, now killed or paused
     * @param timeout how long to wait (not scaled; pass {@link Timing#scaled(Duration)})
     * @return the node that owns the master's slots now
     * @throws IllegalArgumentException if {@code master} owns no slots
     * @throws IllegalStateException on timeout
     */
    public RedisServer awaitFailover(RedisServer master, Duration timeout) {
        String id = nodeId(master);
        int slot = view().stream()
                .filter(line -> line.id.equals(id) && !line.slots.isEmpty())
                .map(line -> line.slots.get(0)[0])
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(master + " owns no slots"));
        return NodeSupport.await(timeout, "slot " + slot + " of " + master.port() + " to move to another node", () -> {
            List<NodeLine> view = agreedView();
            if (view == null) {
                return null;
            }
            for (NodeLine line : view) {
                if (line.owns(slot) && !line.id.equals(id)) {
                    return NodeSupport.byPort(nodes, line.port);
                }
            }
            return null;
        });
    }

    /**
     * Waits until every running, unpaused node reports {@code cluster_state:ok} and all of them agree on which master
     * owns which slots and which replica follows which master. Right after a master is killed the others still report
     * {@code ok} until they notice (see {@link #awaitFailover(RedisServer, Duration)}).
     *
     * @param timeout how long to wait (not scaled; pass {@link Timing#scaled(Duration)})
     * @throws IllegalStateException on timeout
     */
    public void awaitStateOk(Duration timeout) {
        NodeSupport.await(timeout, "cluster_state:ok on every node, all agreeing", () -> agreedView());
    }

    /**
     * The {@code CLUSTER NODES} view all running, unpaused nodes share, when each of them is {@code ok}; null while
     * they disagree.
     */
    private List<NodeLine> agreedView() {
        List<NodeLine> agreed = null;
        String agreedShape = null;
        for (RedisServer node : nodes) {
            if (!NodeSupport.isUp(node)) {
                continue;
            }
            if (!String.valueOf(node.command("CLUSTER", "INFO")).contains("cluster_state:ok")) {
                return null;
            }
            List<NodeLine> view = NodeLine.parse(node.command("CLUSTER", "NODES"));
            String shape = NodeLine.shape(view);
            if (agreedShape == null) {
                agreed = view;
                agreedShape = shape;
            } else if (!agreedShape.equals(shape)) {
                return null;
            }
        }
        return agreed;
    }

    private List<NodeLine> view() {
        RedisServer node = nodes.stream()
                .filter(NodeSupport::isUp)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no node of the cluster is running"));
        return NodeLine.parse(node.command("CLUSTER", "NODES"));
    }

    private static void checkSlot(int slot) {
        if (slot < 0 || slot >= SLOTS) {
            throw new IllegalArgumentException("slot must be from 0 to " + (SLOTS - 1) + ": " + slot);
        }
    }

    /** Stops every node and deletes its directory (with its {@code nodes.conf}); idempotent. */
    @Override
    public void close() {
        NodeSupport.closeAll(nodes);
    }

    @Override
    public String toString() {
        return "ClusterSetup{" + nodes + "}";
    }

    /** One line of {@code CLUSTER NODES}: id, port, flags, master id and owned slot ranges. */
    private static final class NodeLine {

        final String id;
        final int port;
        final Set<String> flags;
        final String masterId;
        final List<int[]> slots = new ArrayList<>();

        private NodeLine(String line) {
            String[] fields = line.split(" ");
            id = fields[0];
            String address = fields[1];
            port = Integer.parseInt(
                    address.substring(address.lastIndexOf(':', address.indexOf('@')) + 1, address.indexOf('@')));
            flags = new HashSet<>(Arrays.asList(fields[2].split(",")));
            masterId = fields[3];
            for (int i = 8; i < fields.length; i++) {
                if (fields[i].startsWith("[")) {
                    continue; // a slot being imported or migrated: [slot->-id] or [slot-<-id]
                }
                int dash = fields[i].indexOf('-');
                int first = Integer.parseInt(dash < 0 ? fields[i] : fields[i].substring(0, dash));
                int last = dash < 0 ? first : Integer.parseInt(fields[i].substring(dash + 1));
                slots.add(new int[] {first, last});
            }
        }

        static List<NodeLine> parse(Object reply) {
            List<NodeLine> lines = new ArrayList<>();
            for (String line : String.valueOf(reply).split("\n")) {
                if (!line.isBlank()) {
                    lines.add(new NodeLine(line.trim()));
                }
            }
            return lines;
        }

        /** Who owns which slots and who follows whom, by port: equal for views that agree. */
        static String shape(List<NodeLine> view) {
            Map<String, Integer> portsById = new HashMap<>();
            view.forEach(line -> portsById.put(line.id, line.port));
            Set<String> facts = new TreeSet<>();
            for (NodeLine line : view) {
                for (int[] range : line.slots) {
                    facts.add(range[0] + "-" + range[1] + "@" + line.port);
                }
                if (line.has("slave")) {
                    facts.add(line.port + ">" + portsById.get(line.masterId));
                }
            }
            return String.join(" ", facts);
        }

        boolean has(String flag) {
            return flags.contains(flag);
        }

        boolean owns(int slot) {
            return slots.stream().anyMatch(range -> range[0] <= slot && slot <= range[1]);
        }
    }

    /**
     * Configures and starts a {@link ClusterSetup}.
     *
     * <p>Not thread-safe; use one builder per thread.
     */
    public static final class Builder {

        private int masters = 3;
        private int replicasPerMaster;
        private Duration nodeTimeout = Duration.ofSeconds(2);
        // The cluster's own options come first, so that extraArgs can override them.
        private final RedisServer.Builder node = RedisServer.builder()
                .extraArgs("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")
                .extraArgs(NodeSupport.replicationArgs())
                .portPicker(RedisLauncher::freePortWithClusterBus);

        private Builder() {}

        /**
         * Runs this {@code redis-server} on every node instead of {@link RedisServer#resolveBinary()}, such as {@link
         * RedisServer#embeddedBinary()} for a Redis 6.2 cluster.
         *
         * @param binary an executable {@code redis-server}
         * @return this builder
         */
        public Builder binary(Path binary) {
            node.binary(binary);
            return this;
        }

        /**
         * Sets how many masters share the slots.
         *
         * @param masters at least 3 (a cluster needs a majority of masters to fail one over)
         * @return this builder
         * @throws IllegalArgumentException if {@code masters} is less than 3
         */
        public Builder masters(int masters) {
            if (masters < 3) {
                throw new IllegalArgumentException("a cluster needs at least 3 masters: " + masters);
            }
            this.masters = masters;
            return this;
        }

        /**
         * Sets how many replicas each master has.
         *
         * @param replicasPerMaster 0 or more
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder replicasPerMaster(int replicasPerMaster) {
            if (replicasPerMaster < 0) {
                throw new IllegalArgumentException("replicasPerMaster must not be negative: " + replicasPerMaster);
            }
            this.replicasPerMaster = replicasPerMaster;
            return this;
        }

        /**
         * Sets {@code cluster-node-timeout}: how long a node may not answer before the others deem it failing (and a
         * replica of a failed master starts an automatic failover).
         *
         * @param nodeTimeout at least 100 ms
         * @return this builder
         */
        public Builder nodeTimeout(Duration nodeTimeout) {
            if (Objects.requireNonNull(nodeTimeout, "nodeTimeout").toMillis() < 100) {
                throw new IllegalArgumentException("nodeTimeout must be at least 100 ms: " + nodeTimeout);
            }
            this.nodeTimeout = nodeTimeout;
            return this;
        }

        /**
         * Enables AOF on every node, as {@link RedisServer.Builder#aof(boolean)}.
         *
         * @param aof {@code true} to enable AOF
         * @return this builder
         */
        public Builder aof(boolean aof) {
            node.aof(aof);
            return this;
        }

        /**
         * Appends raw {@code redis-server} arguments for every node, e.g. {@code "--cluster-require-full-coverage",
         * "no"}; they follow the cluster's own options and override them, except {@code --cluster-node-timeout} (set it
         * with {@link #nodeTimeout(Duration)}).
         *
         * @param args arguments passed through unchanged
         * @return this builder
         */
        public Builder extraArgs(String... args) {
            node.extraArgs(args);
            return this;
        }

        /**
         * Starts the nodes, creates the cluster and waits until it is ok (see the class comment).
         *
         * @return the running cluster; close it when done
         * @throws IllegalStateException if a node does not start or the cluster is not ok within 30 s (scaled)
         */
        public ClusterSetup start() {
            return NodeSupport.startOrClose(new ClusterSetup(), cluster -> cluster.start(this));
        }

        /**
         * Returns a JUnit extension that starts a cluster configured like this builder is now.
         *
         * @return the extension
         */
        public TopologyExtension<ClusterSetup> extension() {
            Builder copy = new Builder();
            copy.masters = masters;
            copy.replicasPerMaster = replicasPerMaster;
            copy.nodeTimeout = nodeTimeout;
            copy.node.with(node);
            return TopologyExtension.of(ClusterSetup.class, copy::start);
        }
    }
}
