package dev.dlock.sim;

import dev.dlock.spi.RedisReplyException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * One simulated Redis 7.0 server: the keyspace (strings, hashes, sorted sets, per-key expiry), the commands dlock's
 * scripts call, scripting ({@code EVAL}, {@code EVALSHA}, {@code SCRIPT LOAD/EXISTS/FLUSH}) that runs dlock's own Lua
 * scripts unchanged in LuaJ, pub/sub (classic and sharded) and a restart with or without its data.
 *
 * <p>Single-threaded by contract: the caller drives it from one thread (the simulation's scheduler); it has no lock.
 * Deterministic: no reply or stored order depends on a hash map's iteration or on the system clock. Time comes only
 * from the clock given at construction, in ms; keys expire lazily against it (a key whose time is past is absent to
 * every command, as in Redis), and inside one script the time is the script's start time, for expiry and for {@code
 * TIME} alike (Redis 7 freezes the expiry clock so; the simulated clock does not move during a script anyway).
 *
 * <pre>{@code
 * long[] now = {1_000};
 * SimRedis redis = new SimRedis(() -> now[0]);
 * redis.call("SET", "k", "v", "PX", "100");
 * now[0] += 101;
 * redis.call("GET", "k"); // null: expired
 * }</pre>
 *
 * <p>Messages published by a command reach the subscribers' listeners after the command (or script) returns, in
 * publish order, never from inside a script.
 */
public final class SimRedis {
    private static final Set<String> NOT_FROM_SCRIPTS = Set.of(
            "EVAL",
            "EVALSHA",
            "EVAL_RO",
            "EVALSHA_RO",
            "SCRIPT",
            "SUBSCRIBE",
            "UNSUBSCRIBE",
            "SSUBSCRIBE",
            "SUNSUBSCRIBE",
            "PSUBSCRIBE",
            "PUNSUBSCRIBE",
            "MULTI",
            "EXEC",
            "WATCH",
            "WAIT");

    private final LongSupplier clock;
    private final Keyspace keys;
    private final Commands commands;
    private final LuaScripting lua;
    private final Map<String, String> scripts = new LinkedHashMap<>(); // loaded: SHA-1 -> source
    private final Map<String, LinkedHashSet<PubSubConnection>> channels = new TreeMap<>();
    private final Map<String, LinkedHashSet<PubSubConnection>> shardChannels = new TreeMap<>();
    private final ArrayDeque<Runnable> outbox = new ArrayDeque<>();
    private final List<Runnable> restartListeners = new ArrayList<>();
    private SimReplica replica; // fed by this server's writes, or null
    private long scriptTime = -1; // the script's start time while one runs, else -1
    private boolean dispatching;
    private long restarts;
    private long wipes;

    /**
     * Creates an empty server.
     *
     * @param clockMillis the server's clock in ms (Unix time or any other origin); called once per command, once per
     *     script
     * @throws NullPointerException if {@code clockMillis} is null
     */
    public SimRedis(LongSupplier clockMillis) {
        this.clock = Objects.requireNonNull(clockMillis, "clockMillis");
        this.keys = new Keyspace(this::now);
        this.commands = new Commands(keys, this);
        this.lua = new LuaScripting(this::callFromScript);
    }

    /**
     * The server's time: the clock, or the start time of the script running now.
     *
     * @return ms
     */
    public long now() {
        return scriptTime >= 0 ? scriptTime : clock.getAsLong();
    }

    /**
     * Runs one command as a client connection sends it: a data command, or {@code EVAL}, {@code EVALSHA}, {@code
     * SCRIPT LOAD|EXISTS|FLUSH}. Pub/sub subscriptions go through {@link #connectPubSub} instead.
     *
     * @param argv the command name and its arguments
     * @return {@code Long} for an integer, {@code String} for a bulk string, {@link StatusReply} for a status, {@code
     *     List<Object>} for an array (an error inside one appears as a {@link RedisReplyException} element), {@code
     *     null} for nil
     * @throws RedisReplyException for an error reply, worded as Redis 7.0 words it
     * @throws IllegalArgumentException if {@code argv} is empty
     */
    public Object call(String... argv) {
        if (argv.length == 0) {
            throw new IllegalArgumentException("a command needs at least its name");
        }
        Object reply;
        String name = argv[0].toUpperCase(Locale.ROOT);
        switch (name) {
            case "EVAL", "EVALSHA" -> reply = evalCommand(name, argv);
            case "SCRIPT" -> reply = scriptCommand(argv);
            default -> reply = commands.execute(argv, false);
        }
        ship();
        flushMessages();
        return toClient(reply, true);
    }

    /**
     * The live keys (expired ones are dropped first), sorted: for checks of what a run left behind.
     *
     * @return the key names
     */
    public List<String> keys() {
        keys.dropExpired();
        List<String> out = new ArrayList<>();
        keys.rawKeys().forEach(out::add);
        Collections.sort(out);
        return out;
    }

    /**
     * Runs a script by its source ({@code EVAL}), loading it.
     *
     * @param source the Lua source
     * @param keys its KEYS
     * @param args its ARGV
     * @return the reply, as {@link #call} returns them
     * @throws RedisReplyException for an error reply
     */
    public Object eval(String source, String[] keys, String[] args) {
        String sha = scriptLoad(source);
        Object reply = runScript(sha, keys, args);
        ship();
        flushMessages();
        return toClient(reply, true);
    }

    /**
     * Runs a loaded script by its SHA-1 ({@code EVALSHA}).
     *
     * @param sha1 the script's SHA-1, lowercase or uppercase hex
     * @param keys its KEYS
     * @param args its ARGV
     * @return the reply, as {@link #call} returns them
     * @throws RedisReplyException for an error reply; {@code NOSCRIPT No matching script. Please use EVAL.} when the
     *     script is not loaded (never, or not since a restart or {@link #scriptFlush()})
     */
    public Object evalsha(String sha1, String[] keys, String[] args) {
        String sha = sha1.toLowerCase(Locale.ROOT);
        Object reply = scripts.containsKey(sha) ? runScript(sha, keys, args) : noScript();
        ship();
        flushMessages();
        return toClient(reply, true);
    }

    /**
     * Loads a script ({@code SCRIPT LOAD}).
     *
     * @param source the Lua source
     * @return its SHA-1
     * @throws RedisReplyException if it does not compile
     */
    public String scriptLoad(String source) {
        String sha = LuaScripting.sha1(source);
        ErrorReply error = lua.compile(sha, source);
        if (error != null) {
            throw new RedisReplyException(error.message(), null);
        }
        scripts.put(sha, source);
        return sha;
    }

    /**
     * Whether a script is loaded ({@code SCRIPT EXISTS}).
     *
     * @param sha1 its SHA-1
     * @return true if {@link #evalsha} would run it
     */
    public boolean scriptExists(String sha1) {
        return scripts.containsKey(sha1.toLowerCase(Locale.ROOT));
    }

    /** Forgets every loaded script ({@code SCRIPT FLUSH}); compiled code is kept for when they are loaded again. */
    public void scriptFlush() {
        scripts.clear();
    }

    /**
     * Opens a pub/sub connection, whose messages go to {@code listener} (after the command that published them).
     *
     * @param listener receives channel and message
     * @return the connection
     */
    public PubSubConnection connectPubSub(java.util.function.BiConsumer<String, String> listener) {
        return new PubSubConnection(this, Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Restarts the server: the keyspace is kept ({@code persisted}, as from an AOF, less the keys that expired) or
     * emptied; the script cache is always emptied (a restarted Redis has no scripts, so the next {@code EVALSHA}
     * answers NOSCRIPT); every pub/sub connection is dropped with its subscriptions. The restart listeners run last.
     *
     * @param persisted whether the data survives
     */
    public void restart(boolean persisted) {
        if (persisted) {
            keys.dropExpired();
        } else {
            keys.clear();
            wipes++;
        }
        scripts.clear();
        for (Map<String, LinkedHashSet<PubSubConnection>> map : List.of(channels, shardChannels)) {
            for (LinkedHashSet<PubSubConnection> subscribers : map.values()) {
                for (PubSubConnection c : subscribers) {
                    c.dropped();
                }
            }
            map.clear();
        }
        outbox.clear();
        restarts++;
        for (Runnable listener : List.copyOf(restartListeners)) {
            listener.run();
        }
    }

    /**
     * Restarts the server as {@link #restart restart(false)} does, but with {@code data}'s keys (their values and
     * absolute expiries, as stored) instead of none: a replica promoted in its place. Not counted as a wipe.
     *
     * @param data the server whose keys it takes
     */
    void restartWith(SimRedis data) {
        copyKeysOf(data);
        restart(true);
    }

    /** Makes this server's keys a copy of {@code source}'s, as stored (a replica's full sync). */
    void copyKeysOf(SimRedis source) {
        keys.clear();
        for (String key : source.keys.rawKeys()) {
            keys.load(source.keys.state(key));
        }
    }

    /** Applies one replication entry: each key's state as the master had it after the command. */
    void apply(List<Keyspace.State> states) {
        for (Keyspace.State state : states) {
            keys.load(state);
        }
    }

    /**
     * Feeds {@code replica} every write from now on: after each command or script a client sends, the state of each
     * key it wrote ({@link SimReplica#ship}); null stops it.
     */
    void replicateTo(SimReplica replica) {
        this.replica = replica;
        keys.noteWrites(replica != null);
    }

    /** The replica fed by this server, or null. */
    SimReplica replica() {
        return replica;
    }

    private void ship() {
        if (replica == null) {
            return;
        }
        List<String> written = keys.written();
        if (written.isEmpty()) {
            return;
        }
        List<Keyspace.State> states = new ArrayList<>(written.size());
        for (String key : written) {
            states.add(keys.state(key));
        }
        replica.ship(states);
    }

    /**
     * Adds an action run after every {@link #restart}: the place where a simulated client notices that its
     * connections were dropped.
     *
     * @param listener the action
     */
    public void addRestartListener(Runnable listener) {
        restartListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * How many times the server restarted.
     *
     * @return the count
     */
    public long restarts() {
        return restarts;
    }

    /**
     * How many times the server restarted without its data.
     *
     * @return the count
     */
    public long wipes() {
        return wipes;
    }

    void subscribe(PubSubConnection connection, String channel, boolean sharded) {
        (sharded ? shardChannels : channels)
                .computeIfAbsent(channel, c -> new LinkedHashSet<>())
                .add(connection);
    }

    void unsubscribe(PubSubConnection connection, String channel, boolean sharded) {
        Map<String, LinkedHashSet<PubSubConnection>> map = sharded ? shardChannels : channels;
        LinkedHashSet<PubSubConnection> subscribers = map.get(channel);
        if (subscribers != null && subscribers.remove(connection) && subscribers.isEmpty()) {
            map.remove(channel);
        }
    }

    /** How many commands ran, sent by clients or called by scripts. */
    long commandCount() {
        return commands.executed;
    }

    /** A negative control for the differential test's own test: PTTL answers {@code skewMs} more than it should. */
    void breakPttlForTest(long skewMs) {
        commands.pttlSkew = skewMs;
    }

    /** A negative control: {@code string.format('%d', x)} as LuaJ has it, 32 bits, mangling µs tokens. */
    void breakFormatForTest() {
        lua.format.broken = true;
    }

    int publish(String channel, String message, boolean sharded) {
        LinkedHashSet<PubSubConnection> subscribers = (sharded ? shardChannels : channels).get(channel);
        if (subscribers == null) {
            return 0;
        }
        for (PubSubConnection c : subscribers) {
            outbox.add(() -> c.deliver(channel, message));
        }
        return subscribers.size();
    }

    private void flushMessages() {
        if (dispatching) {
            return; // a listener's own command: the loop below delivers its messages after the current ones
        }
        dispatching = true;
        try {
            Runnable r;
            while ((r = outbox.poll()) != null) {
                r.run();
            }
        } finally {
            dispatching = false;
        }
    }

    private Object callFromScript(String[] argv) {
        if (NOT_FROM_SCRIPTS.contains(argv[0].toUpperCase(Locale.ROOT))) {
            return new ErrorReply("ERR This Redis command is not allowed from script");
        }
        return commands.execute(argv, true);
    }

    private Object runScript(String sha, String[] keys, String[] args) {
        scriptTime = clock.getAsLong();
        try {
            return lua.run(sha, keys, args);
        } finally {
            scriptTime = -1;
        }
    }

    private static ErrorReply noScript() {
        return new ErrorReply("NOSCRIPT No matching script. Please use EVAL.");
    }

    private Object evalCommand(String name, String[] argv) {
        if (argv.length < 3) {
            return Commands.arityError(name, false);
        }
        long numkeys;
        try {
            numkeys = Commands.parseLong(argv[2]);
        } catch (ErrorReply.Raised e) {
            return e.reply;
        }
        if (numkeys > argv.length - 3) {
            return new ErrorReply("ERR Number of keys can't be greater than number of args");
        }
        if (numkeys < 0) {
            return new ErrorReply("ERR Number of keys can't be negative");
        }
        String[] keyArgs = java.util.Arrays.copyOfRange(argv, 3, 3 + (int) numkeys);
        String[] args = java.util.Arrays.copyOfRange(argv, 3 + (int) numkeys, argv.length);
        String sha;
        if (name.equals("EVAL")) {
            sha = LuaScripting.sha1(argv[1]);
            ErrorReply error = lua.compile(sha, argv[1]);
            if (error != null) {
                return error;
            }
            scripts.put(sha, argv[1]);
        } else {
            sha = argv[1].toLowerCase(Locale.ROOT);
            if (!scripts.containsKey(sha)) {
                return noScript();
            }
        }
        return runScript(sha, keyArgs, args);
    }

    private Object scriptCommand(String[] argv) {
        String sub = argv.length > 1 ? argv[1].toUpperCase(Locale.ROOT) : "";
        switch (sub) {
            case "LOAD":
                if (argv.length != 3) {
                    return Commands.arityError("script|load", false);
                }
                try {
                    return scriptLoad(argv[2]);
                } catch (RedisReplyException e) {
                    return new ErrorReply(e.getMessage());
                }
            case "FLUSH":
                scriptFlush();
                return StatusReply.OK;
            case "EXISTS": {
                List<Object> out = new ArrayList<>();
                for (int i = 2; i < argv.length; i++) {
                    out.add(scriptExists(argv[i]) ? 1L : 0L);
                }
                return out;
            }
            default:
                return new ErrorReply("ERR dlock-sim does not simulate SCRIPT " + sub);
        }
    }

    /** An internal reply as the public API gives it: errors thrown at the top, elements of arrays inside. */
    static Object toClient(Object reply, boolean top) {
        if (reply instanceof ErrorReply e) {
            RedisReplyException x = new RedisReplyException(e.message(), null);
            if (top) {
                throw x;
            }
            return x;
        }
        if (reply instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object o : list) {
                out.add(toClient(o, false));
            }
            return out;
        }
        return reply;
    }
}
