package dev.dlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the same seeded sequences on a real Redis and on a {@link SimRedis} and compares every reply and, after each
 * step, the whole keyspace (type, value, TTL).
 *
 * <p>Time: both servers read the host's clock (the sim's clock is {@code System.currentTimeMillis()}, the real
 * server's {@code gettimeofday}), and a step runs on the real server first, the sim right after; so the two differ in
 * time by the step's own duration. Numbers that carry time are compared within {@link #TOLERANCE_MS} (50 ms; µs
 * values, such as fencing tokens of server time and queue scores, within 50,000 µs): an integer of magnitude 20 or
 * more matches another within that distance (PTTLs, remaining ms, expiry instants), and the numbers inside strings
 * are compared so word by word. Smaller integers (counts, flags, reply codes) must be equal. So that no decision
 * depends on which side of an expiry each server landed, a step waits until no instant the keyspace holds (a key's
 * expiry, or an ms timestamp in a value: a queue entry's or a holder's expiry) lies within {@link #GUARD_MS} of now.
 * The host is shared and may stall between the two runs of a step: the tolerance of a step's reply grows by the time
 * the step took on both; a key's PTTL on the sim must lie between two readings of the real one (within the tolerance);
 * and a step that took longer than half the guard ends its sequence as {@link Inconclusive} (counted, not failed).
 *
 * <p>Messages: a subscriber on each side listens on the wake-up channels of every client of the workload (classic and
 * sharded); after each step, the messages each received, in order, must agree (their numbers as above).
 *
 * <p>Orders: hash fields are compared in order (a small Redis hash keeps insertion order, as the sim's does) unless
 * the hash is big (more than 128 fields or a field or value over 64 bytes: Redis then uses a hash table), when they
 * are compared as a map; sorted sets in order; {@code KEYS} and {@code SCAN} results (hash-table order in Redis) as
 * sorted lists. Errors are compared word for word, except the text of a Lua runtime error (LuaJ words those unlike
 * Lua 5.1): its position (line) and script are compared, not its message.
 */
final class Differential {
    static final long TOLERANCE_MS = 50;
    static final long GUARD_MS = 100;
    private static final Pattern NUMBER = Pattern.compile("-?\\d+");
    private static final Pattern LUA_RUNTIME = Pattern.compile(
            "^ERR user_script:(\\d+): .* script: ([0-9a-f]+), on @user_script:(\\d+)\\.$", Pattern.DOTALL);

    /** How a reply's order is compared. */
    enum Order {
        /** As it is. */
        AS_IS,
        /** A list compared as a sorted list (KEYS, SCAN: hash-table order in Redis). */
        SORTED,
        /** A list whose first element stays and the rest is compared sorted (admin-scan's page). */
        SORTED_AFTER_FIRST;

        Object normalize(Object reply) {
            if (this == AS_IS || !(reply instanceof List<?> list) || list.isEmpty()) {
                return reply;
            }
            if (this == SORTED) {
                return sorted(list);
            }
            List<Object> out = new ArrayList<>();
            out.add(list.get(0));
            out.addAll((List<?>) sorted(list.subList(1, list.size())));
            return out;
        }
    }

    /** An error reply, kept as a value so that replies compare as data. */
    record Err(String message) {}

    /** One server under comparison; replies normalized: status and bulk strings as String, errors as {@link Err}. */
    interface Side {
        Object call(String... argv);
    }

    private final Side real;
    private final Side sim;
    private final Messages realMessages;
    private final Messages simMessages;
    private final StringBuilder log = new StringBuilder();
    private long steps;

    /** The pub/sub messages a side's subscriber received since the last call. */
    interface Messages {
        List<String> drain();
    }

    Differential(Side real, Side sim, Messages realMessages, Messages simMessages) {
        this.real = real;
        this.sim = sim;
        this.realMessages = realMessages;
        this.simMessages = simMessages;
    }

    long steps() {
        return steps;
    }

    /** The log of the last run's steps, for a failure report. */
    String log() {
        return log.toString();
    }

    /**
     * Runs one command on both; returns a description of the mismatch, or null.
     *
     * @param unordered whether the reply is a list whose order is not compared (KEYS-like)
     */
    String step(String what, Order order, String... argv) {
        steps++;
        long started = System.currentTimeMillis();
        Object r = order.normalize(real.call(argv));
        Object s = order.normalize(sim.call(argv));
        long slack = System.currentTimeMillis() - started;
        log.append(steps)
                .append(' ')
                .append(what)
                .append(" -> ")
                .append(abbreviate(r))
                .append('\n');
        if (slack > GUARD_MS / 2) {
            // the host stalled between the two: they may have run on two sides of an expiry the guard kept away
            throw new Inconclusive("step " + steps + " " + what + " took " + slack + " ms on the two servers");
        }
        if (!same(r, s, slack)) {
            return "step " + steps + " " + what + ": real " + r + " but sim " + s;
        }
        List<String> rm = realMessages.drain();
        List<String> sm = simMessages.drain();
        if (!rm.isEmpty()) {
            log.append("  published ").append(rm).append('\n');
        }
        if (!same(rm, sm, slack)) {
            return "step " + steps + " " + what + ": real published " + rm + " but sim " + sm;
        }
        return null;
    }

    /**
     * A sequence whose comparison cannot be trusted: the host stalled (GC, another process on a busy machine) for
     * longer than the guard allows between running a step on the real server and on the sim. Counted, not failed.
     */
    static final class Inconclusive extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Inconclusive(String message) {
            super(message);
        }
    }

    /** Compares the whole keyspace; returns a description of the first mismatch, or null. */
    String compareKeyspace() {
        List<String> realKeys = keys(real);
        List<String> simKeys = keys(sim);
        if (!realKeys.equals(simKeys)) {
            return "keyspace: real keys " + realKeys + " but sim keys " + simKeys;
        }
        for (String key : realKeys) {
            Object type = real.call("TYPE", key);
            Object simType = sim.call("TYPE", key);
            if (!Objects.equals(type, simType)) {
                return "key " + key + ": real type " + type + " but sim " + simType;
            }
            Object rv = value(real, key, type);
            Object sv = value(sim, key, type);
            if (!same(rv, sv, 0)) {
                return "key " + key + ": real value " + rv + " but sim " + sv;
            }
            // the sim's PTTL is read between two of the real server's: it must lie between them (within tolerance)
            Object before = real.call("PTTL", key);
            Object st = sim.call("PTTL", key);
            Object after = real.call("PTTL", key);
            if (!sameTtl(before, st, after)) {
                return "key " + key + ": real PTTL " + before + ", then " + after + ", but sim " + st;
            }
        }
        return null;
    }

    /** Waits until no instant held by the keyspace is within GUARD_MS of now (see the class comment). */
    void awaitNoNearInstant() throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            long now = System.currentTimeMillis();
            long nearest = Long.MAX_VALUE;
            for (long instant : instants(now)) {
                if (Math.abs(instant - now) <= GUARD_MS) {
                    nearest = Math.min(nearest, instant);
                }
            }
            if (nearest == Long.MAX_VALUE) {
                return;
            }
            Thread.sleep(Math.max(1, nearest + GUARD_MS + 1 - now)); // lets time pass: both servers read this clock
        }
        throw new IllegalStateException("instants kept landing near now");
    }

    private List<Long> instants(long now) {
        List<Long> out = new ArrayList<>();
        for (String key : keys(sim)) {
            Object pttl = sim.call("PTTL", key);
            if (pttl instanceof Long p && p >= 0) {
                out.add(now + p);
            }
            Object type = sim.call("TYPE", key);
            collectTimestamps(value(sim, key, type), now, out);
        }
        return out;
    }

    private static void collectTimestamps(Object value, long now, List<Long> out) {
        if (value instanceof List<?> list) {
            for (Object o : list) {
                collectTimestamps(o, now, out);
            }
        } else if (value instanceof Map<?, ?> map) {
            collectTimestamps(new ArrayList<>(map.values()), now, out);
        } else if (value instanceof String s) {
            Matcher m = NUMBER.matcher(s);
            while (m.find()) {
                String digits = m.group();
                if (digits.length() == 13) { // an ms timestamp of this era
                    long t = Long.parseLong(digits);
                    if (Math.abs(t - now) < 86_400_000L) {
                        out.add(t);
                    }
                }
            }
        }
    }

    private static List<String> keys(Side side) {
        List<String> keys = new ArrayList<>();
        for (Object k : (List<?>) side.call("KEYS", "*")) {
            keys.add((String) k);
        }
        keys.sort(null);
        return keys;
    }

    private static Object value(Side side, String key, Object type) {
        switch (String.valueOf(type)) {
            case "string":
                return side.call("GET", key);
            case "hash": {
                List<?> flat = (List<?>) side.call("HGETALL", key);
                boolean big = flat.size() > 256;
                for (Object o : flat) {
                    big |= o instanceof String s && s.length() > 64;
                }
                if (!big) {
                    return flat;
                }
                Map<Object, Object> map = new TreeMap<>();
                for (int i = 0; i < flat.size(); i += 2) {
                    map.put(flat.get(i), flat.get(i + 1));
                }
                return map;
            }
            case "zset":
                return side.call("ZRANGE", key, "0", "-1", "WITHSCORES");
            default:
                return type;
        }
    }

    private static boolean sameTtl(Object before, Object sim, Object after) {
        if (before instanceof Long b && sim instanceof Long s && after instanceof Long a) {
            if (b < 0 || s < 0 || a < 0) {
                return b.equals(s) || a.equals(s);
            }
            return s <= b + TOLERANCE_MS && s >= a - TOLERANCE_MS;
        }
        return Objects.equals(before, sim) || Objects.equals(after, sim);
    }

    static boolean same(Object a, Object b, long slack) {
        if (a instanceof Long x && b instanceof Long y) {
            return sameNumber(x, y, slack);
        }
        if (a instanceof String x && b instanceof String y) {
            return sameText(x, y, slack);
        }
        if (a instanceof Err x && b instanceof Err y) {
            Matcher mx = LUA_RUNTIME.matcher(x.message());
            Matcher my = LUA_RUNTIME.matcher(y.message());
            if (mx.matches() && my.matches()) {
                return mx.group(1).equals(my.group(1))
                        && mx.group(2).equals(my.group(2))
                        && mx.group(3).equals(my.group(3));
            }
            return x.equals(y);
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!same(x.get(i), y.get(i), slack)) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            return x.keySet().equals(y.keySet())
                    && same(new ArrayList<>(x.values()), new ArrayList<>(y.values()), slack);
        }
        return Objects.equals(a, b);
    }

    private static boolean sameNumber(long x, long y, long slack) {
        if (x == y) {
            return true;
        }
        if (Math.abs(x) < 20 || Math.abs(y) < 20 || Long.signum(x) != Long.signum(y)) {
            return false;
        }
        long ms = TOLERANCE_MS + slack;
        long tolerance = Math.abs(x) >= 100_000_000_000_000L ? ms * 1000 : ms;
        return Math.abs(x - y) <= tolerance;
    }

    private static boolean sameText(String x, String y, long slack) {
        if (x.equals(y)) {
            return true;
        }
        String[] a = x.split(" ", -1);
        String[] b = y.split(" ", -1);
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i].equals(b[i])) {
                continue;
            }
            if (!NUMBER.matcher(a[i]).matches()
                    || !NUMBER.matcher(b[i]).matches()
                    || a[i].length() > 18
                    || b[i].length() > 18
                    || !sameNumber(Long.parseLong(a[i]), Long.parseLong(b[i]), slack)) {
                return false;
            }
        }
        return true;
    }

    /** A list sorted by each element's text (a nested list by its first element's), elements kept as they are. */
    private static Object sorted(Object reply) {
        if (!(reply instanceof List<?> list)) {
            return reply;
        }
        List<Object> out = new ArrayList<>(list);
        out.sort(java.util.Comparator.comparing(o ->
                String.valueOf(o instanceof List<?> l && !l.isEmpty() ? l.get(0) : o)));
        return out;
    }

    private static String abbreviate(Object o) {
        String s = String.valueOf(o);
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    static Random random(long seed) {
        return new Random(seed);
    }
}
