package dev.dlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The commands of the simulated server, worded as Redis 7.0 words their replies and errors: those dlock's scripts
 * call, and a few a test needs beside them (PING, ECHO, KEYS, FLUSHALL). Hashes, sorted sets and SCAN are in {@link
 * CollectionCommands}. Not thread-safe.
 */
final class Commands {
    /** Arity as Redis declares it: n exactly, or -n at least n (the command name counted). */
    private static final Map<String, Integer> ARITY = new TreeMap<>();

    static {
        String[] table = {
            "GET 2", "SET -3", "DEL -2", "EXISTS -2", "TYPE 2", "PTTL 2", "PEXPIRE -3", "PERSIST 2", "INCR 2",
            "HGET 3", "HSET -4", "HDEL -3", "HEXISTS 3", "HGETALL 2", "ZADD -4", "ZREM -3", "ZRANGE -4", "ZCARD 2",
            "SCAN -2", "PUBLISH 3", "SPUBLISH 3", "TIME 1", "INFO -1", "PING -1", "ECHO 2", "KEYS 2", "FLUSHALL -1"
        };
        for (String entry : table) {
            String[] parts = entry.split(" ");
            ARITY.put(parts[0], Integer.parseInt(parts[1]));
        }
    }

    private final Keyspace keys;
    /** 0; a test sets it to break PTTL on purpose ({@link SimRedis#breakPttlForTest}). */
    long pttlSkew;
    /** Commands run, from clients and scripts: for the throughput measurement. */
    long executed;

    private final CollectionCommands collections;
    private final SimRedis server;

    Commands(Keyspace keys, SimRedis server) {
        this.keys = keys;
        this.server = server;
        this.collections = new CollectionCommands(keys);
    }

    /**
     * Runs one command.
     *
     * @param argv the command and its arguments
     * @param fromScript whether a script calls it (Redis words arity and unknown-command errors differently there)
     * @return the reply: Long, String (bulk), {@link StatusReply}, List, null (nil) or an {@link ErrorReply}
     */
    Object execute(String[] argv, boolean fromScript) {
        executed++;
        String name = argv[0].toUpperCase(Locale.ROOT);
        Integer arity = ARITY.get(name);
        if (arity == null) {
            if (fromScript) {
                return new ErrorReply("ERR Unknown Redis command called from script");
            }
            StringBuilder args = new StringBuilder();
            for (int i = 1; i < argv.length && args.length() < 128; i++) {
                String a = argv[i];
                args.append('\'')
                        .append(a, 0, Math.min(a.length(), 128 - args.length()))
                        .append("' ");
            }
            return new ErrorReply(
                    "ERR unknown command '" + truncate(argv[0], 128) + "', with args beginning with: " + args);
        }
        if ((arity > 0 && argv.length != arity) || (arity < 0 && argv.length < -arity)) {
            return arityError(name, fromScript);
        }
        try {
            return run(name, argv);
        } catch (ErrorReply.Raised e) {
            return e.reply;
        } finally {
            if (keys.notingWrites()) {
                noteWrite(name, argv);
            }
        }
    }

    /**
     * Tells the keyspace which keys a write command may have changed, for a replica ({@link Keyspace#written()}): a
     * key it names is shipped as it is afterwards, changed or not, which a replica applies to the same effect.
     */
    private void noteWrite(String name, String[] argv) {
        switch (name) {
            case "SET", "PEXPIRE", "PERSIST", "INCR", "HSET", "HDEL", "ZADD", "ZREM" -> keys.wrote(argv[1]);
            case "DEL" -> {
                for (int i = 1; i < argv.length; i++) {
                    keys.wrote(argv[i]);
                }
            }
            default -> {}
        }
    }

    static ErrorReply arityError(String name, boolean fromScript) {
        return fromScript
                ? new ErrorReply("ERR Wrong number of args calling Redis command from script")
                : new ErrorReply("ERR wrong number of arguments for '" + name.toLowerCase(Locale.ROOT) + "' command");
    }

    private Object run(String name, String[] a) {
        switch (name) {
            case "GET":
                return keys.string(a[1]);
            case "SET":
                return set(a);
            case "DEL": {
                long n = 0;
                for (int i = 1; i < a.length; i++) {
                    n += keys.get(a[i]) != null && keys.delete(a[i]) ? 1 : 0;
                }
                return n;
            }
            case "EXISTS": {
                long n = 0;
                for (int i = 1; i < a.length; i++) {
                    n += keys.get(a[i]) != null ? 1 : 0;
                }
                return n;
            }
            case "TYPE":
                return new StatusReply(Keyspace.type(keys.get(a[1])));
            case "PTTL": {
                if (keys.get(a[1]) == null) {
                    return -2L;
                }
                long when = keys.expiry(a[1]);
                return when < 0 ? -1L : Math.max(0, when - keys.now()) + pttlSkew;
            }
            case "PEXPIRE":
                return pexpire(a);
            case "PERSIST":
                return keys.get(a[1]) != null && keys.persist(a[1]) ? 1L : 0L;
            case "INCR":
                return incr(a[1]);
            case "PUBLISH":
                return (long) server.publish(a[1], a[2], false);
            case "SPUBLISH":
                return (long) server.publish(a[1], a[2], true);
            case "TIME": {
                long now = keys.now();
                return List.of(Long.toString(Math.floorDiv(now, 1000)), Long.toString(Math.floorMod(now, 1000) * 1000));
            }
            case "INFO":
                return ServerInfo.info(a, keys);
            case "PING":
                return a.length == 1 ? new StatusReply("PONG") : a.length == 2 ? a[1] : arityError(name, false);
            case "ECHO":
                return a[1];
            case "FLUSHALL":
                keys.wroteAll();
                keys.clear();
                return StatusReply.OK;
            default:
                return collections.run(name, a);
        }
    }

    private Object set(String[] a) {
        boolean nx = false, xx = false, get = false, keepTtl = false;
        String unit = null;
        String amount = null;
        for (int i = 3; i < a.length; i++) {
            String opt = a[i].toUpperCase(Locale.ROOT);
            boolean hasNext = i + 1 < a.length;
            if (opt.equals("NX") && !xx) {
                nx = true;
            } else if (opt.equals("XX") && !nx) {
                xx = true;
            } else if (opt.equals("GET")) {
                get = true;
            } else if (opt.equals("KEEPTTL") && unit == null) {
                keepTtl = true;
            } else if ((opt.equals("EX") || opt.equals("PX") || opt.equals("EXAT") || opt.equals("PXAT"))
                    && unit == null
                    && !keepTtl
                    && hasNext) {
                unit = opt;
                amount = a[++i];
            } else {
                throw ErrorReply.SYNTAX.raise();
            }
        }
        long when = -1;
        if (unit != null) {
            long v = parseLong(amount);
            boolean seconds = unit.startsWith("EX");
            boolean relative = unit.length() == 2;
            if (v <= 0 || (seconds && v > Long.MAX_VALUE / 1000)) {
                throw new ErrorReply("ERR invalid expire time in 'set' command").raise();
            }
            long ms = seconds ? v * 1000 : v;
            if (relative && ms > Long.MAX_VALUE - keys.now()) {
                throw new ErrorReply("ERR invalid expire time in 'set' command").raise();
            }
            when = relative ? keys.now() + ms : ms;
        }
        String old = get ? keys.string(a[1]) : null;
        boolean found = keys.get(a[1]) != null;
        if ((nx && found) || (xx && !found)) {
            return get ? old : null;
        }
        keys.putString(a[1], a[2], keepTtl);
        if (when >= 0) {
            keys.expire(a[1], when);
            keys.get(a[1]); // an absolute time already past deletes the key at once, as Redis does
        }
        return get ? old : StatusReply.OK;
    }

    private Object pexpire(String[] a) {
        boolean nx = false, xx = false, gt = false, lt = false;
        for (int i = 3; i < a.length; i++) {
            switch (a[i].toUpperCase(Locale.ROOT)) {
                case "NX" -> nx = true;
                case "XX" -> xx = true;
                case "GT" -> gt = true;
                case "LT" -> lt = true;
                default -> throw new ErrorReply("ERR Unsupported option " + a[i]).raise();
            }
        }
        if (nx && (xx || gt || lt)) {
            throw new ErrorReply("ERR NX and XX, GT or LT options at the same time are not compatible").raise();
        }
        if (gt && lt) {
            throw new ErrorReply("ERR GT and LT options at the same time are not compatible").raise();
        }
        long ms = parseLong(a[2]); // after the options, as Redis parses them
        long now = keys.now();
        if (ms > Long.MAX_VALUE - now) {
            throw new ErrorReply("ERR invalid expire time in 'pexpire' command").raise();
        }
        long when = ms + now;
        if (keys.get(a[1]) == null) {
            return 0L;
        }
        long current = keys.expiry(a[1]);
        if ((nx && current >= 0) || (xx && current < 0)) {
            return 0L;
        }
        if (gt && (current < 0 || when <= current)) { // no expiry counts as infinite
            return 0L;
        }
        if (lt && current >= 0 && when >= current) {
            return 0L;
        }
        if (when <= now) { // already past: Redis deletes the key (not on a replica or while loading)
            keys.delete(a[1]);
            return 1L;
        }
        keys.expire(a[1], when);
        return 1L;
    }

    private Object incr(String key) {
        String value = keys.string(key);
        long n = value == null ? 0 : parseLong(value);
        if (n == Long.MAX_VALUE) {
            throw new ErrorReply("ERR increment or decrement would overflow").raise();
        }
        n++;
        if (value == null) {
            keys.putString(key, Long.toString(n), false);
        } else {
            keys.overwriteString(key, Long.toString(n));
        }
        return n;
    }

    /** Parses as Redis's {@code string2ll}: optional '-', digits, no leading zero, no sign '+', no spaces. */
    static long parseLong(String s) {
        int n = s.length();
        if (n == 0 || n > 20) {
            throw ErrorReply.NOT_INTEGER.raise();
        }
        int i = s.charAt(0) == '-' ? 1 : 0;
        if (i == n || (s.charAt(i) == '0' && n > i + 1) || (i == 1 && s.equals("-0"))) {
            throw ErrorReply.NOT_INTEGER.raise();
        }
        for (int k = i; k < n; k++) {
            char c = s.charAt(k);
            if (c < '0' || c > '9') {
                throw ErrorReply.NOT_INTEGER.raise();
            }
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw ErrorReply.NOT_INTEGER.raise();
        }
    }

    static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    static List<Object> list(Object... items) {
        List<Object> out = new ArrayList<>(items.length);
        for (Object o : items) {
            out.add(o);
        }
        return out;
    }
}
