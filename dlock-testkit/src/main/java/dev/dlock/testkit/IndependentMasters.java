package dev.dlock.testkit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code N} standalone Redis masters that know nothing of each other, as Redlock uses them: real processes on free
 * loopback ports, each with its own data directory.
 *
 * <pre>{@code
 * try (IndependentMasters masters = IndependentMasters.builder().masters(5).aof(true).aof(4, false).start()) {
 *     masters.server(4).restart(); // crash and come back empty: no AOF on this one
 * }
 * }</pre>
 *
 * <p>Each master is a {@link RedisServer}: kill, pause, resume and restart it by index. With AOF
 * ({@code appendfsync always}) a restarted master keeps every acknowledged write; without it, it comes back empty,
 * which is the Redlock hazard a test may want on some nodes only ({@link Builder#aof(int, boolean)}). This class is
 * thread-safe: its servers are fixed at start.
 */
public final class IndependentMasters implements AutoCloseable {

    private final List<RedisServer> servers = new ArrayList<>();

    private IndependentMasters() {}

    /**
     * Returns a new builder: 3 masters, no AOF, no password.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the masters in start order.
     *
     * @return the servers, unmodifiable
     */
    public List<RedisServer> servers() {
        return List.copyOf(servers);
    }

    /**
     * Returns one master.
     *
     * @param index from 0 to {@code size() - 1}
     * @return the server
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public RedisServer server(int index) {
        return servers.get(index);
    }

    /**
     * Returns how many masters run.
     *
     * @return the number of masters
     */
    public int size() {
        return servers.size();
    }

    /**
     * Returns the URI of each master, in start order ({@link RedisServer#uri()}: with the password when one is set).
     *
     * @return one {@code redis://} URI per master
     */
    public List<String> uris() {
        List<String> uris = new ArrayList<>();
        servers.forEach(server -> uris.add(server.uri()));
        return uris;
    }

    /** Stops every master and deletes its directory; idempotent. */
    @Override
    public void close() {
        NodeSupport.closeAll(servers);
    }

    @Override
    public String toString() {
        return "IndependentMasters" + servers;
    }

    /**
     * Configures and starts {@link IndependentMasters}.
     *
     * <p>Not thread-safe; use one builder per thread.
     */
    public static final class Builder {

        private int masters = 3;
        private boolean aof;
        private final Map<Integer, Boolean> aofByIndex = new HashMap<>();
        private final RedisServer.Builder node = RedisServer.builder();

        private Builder() {}

        /**
         * Sets how many masters run.
         *
         * @param masters at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code masters} is less than 1
         */
        public Builder masters(int masters) {
            if (masters < 1) {
                throw new IllegalArgumentException("masters must be at least 1: " + masters);
            }
            this.masters = masters;
            return this;
        }

        /**
         * Enables or disables AOF on every master not set otherwise by {@link #aof(int, boolean)}.
         *
         * @param aof {@code true} to enable AOF
         * @return this builder
         */
        public Builder aof(boolean aof) {
            this.aof = aof;
            return this;
        }

        /**
         * Enables or disables AOF on one master.
         *
         * @param index the master's index, from 0
         * @param aof {@code true} to enable AOF
         * @return this builder
         * @throws IllegalArgumentException if {@code index} is negative
         */
        public Builder aof(int index, boolean aof) {
            if (index < 0) {
                throw new IllegalArgumentException("index must not be negative: " + index);
            }
            aofByIndex.put(index, aof);
            return this;
        }

        /**
         * Requires clients of every master to authenticate, as {@link RedisServer.Builder#password(String)}.
         *
         * @param password the password, not empty
         * @return this builder
         * @throws IllegalArgumentException if {@code password} is empty
         */
        public Builder password(String password) {
            node.password(password);
            return this;
        }

        /**
         * Appends raw {@code redis-server} arguments for every master.
         *
         * @param args arguments passed through unchanged
         * @return this builder
         */
        public Builder extraArgs(String... args) {
            node.extraArgs(args);
            return this;
        }

        /**
         * Starts the masters.
         *
         * @return the running masters; close them when done
         * @throws IllegalArgumentException if {@link #aof(int, boolean)} named an index of no master
         * @throws IllegalStateException if a master does not start
         */
        public IndependentMasters start() {
            for (int index : aofByIndex.keySet()) {
                if (index >= masters) {
                    throw new IllegalArgumentException("aof(" + index + ", ...) names no master: there are " + masters);
                }
            }
            return NodeSupport.startOrClose(new IndependentMasters(), setup -> {
                for (int i = 0; i < masters; i++) {
                    setup.servers.add(
                            node.copy().aof(aofByIndex.getOrDefault(i, aof)).start());
                }
            });
        }

        /**
         * Returns a JUnit extension that starts masters configured like this builder is now.
         *
         * @return the extension
         */
        public TopologyExtension<IndependentMasters> extension() {
            Builder copy = new Builder();
            copy.masters = masters;
            copy.aof = aof;
            copy.aofByIndex.putAll(aofByIndex);
            copy.node.with(node);
            return TopologyExtension.of(IndependentMasters.class, copy::start);
        }
    }
}
