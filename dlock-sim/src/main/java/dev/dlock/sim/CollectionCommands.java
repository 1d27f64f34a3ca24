package dev.dlock.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Hash, sorted-set and keyspace-walking commands of the simulated server (see {@link Commands}). */
final class CollectionCommands {
    private final Keyspace keys;

    CollectionCommands(Keyspace keys) {
        this.keys = keys;
    }

    Object run(String name, String[] a) {
        switch (name) {
            case "HGET": {
                Map<String, String> h = keys.hash(a[1], false);
                return h == null ? null : h.get(a[2]);
            }
            case "HSET": {
                if (a.length % 2 != 0) {
                    return Commands.arityError(name, false);
                }
                Map<String, String> h = keys.hash(a[1], true);
                long added = 0;
                for (int i = 2; i < a.length; i += 2) {
                    added += h.put(a[i], a[i + 1]) == null ? 1 : 0;
                }
                return added;
            }
            case "HDEL": {
                Map<String, String> h = keys.hash(a[1], false);
                if (h == null) {
                    return 0L;
                }
                long removed = 0;
                for (int i = 2; i < a.length; i++) {
                    removed += h.remove(a[i]) != null ? 1 : 0;
                }
                keys.deleteIfEmpty(a[1], h.size());
                return removed;
            }
            case "HEXISTS": {
                Map<String, String> h = keys.hash(a[1], false);
                return h != null && h.containsKey(a[2]) ? 1L : 0L;
            }
            case "HGETALL": {
                Map<String, String> h = keys.hash(a[1], false);
                List<Object> out = new ArrayList<>();
                if (h != null) {
                    for (Map.Entry<String, String> e : h.entrySet()) {
                        out.add(e.getKey());
                        out.add(e.getValue());
                    }
                }
                return out;
            }
            case "ZADD":
                return zadd(a);
            case "ZREM": {
                ZSet z = keys.zset(a[1], false);
                if (z == null) {
                    return 0L;
                }
                long removed = 0;
                for (int i = 2; i < a.length; i++) {
                    removed += z.remove(a[i]) ? 1 : 0;
                }
                keys.deleteIfEmpty(a[1], z.size());
                return removed;
            }
            case "ZCARD": {
                ZSet z = keys.zset(a[1], false);
                return z == null ? 0L : (long) z.size();
            }
            case "ZRANGE":
                return zrange(a);
            case "SCAN":
                return scan(a);
            case "KEYS": {
                List<Object> out = new ArrayList<>();
                for (String key : keys.rawKeys()) {
                    if (Glob.matches(a[1], key) && keys.get(key) != null) {
                        out.add(key);
                    }
                }
                return out;
            }
            default:
                throw new IllegalStateException("no implementation of " + name);
        }
    }

    private Object zadd(String[] a) {
        boolean nx = false, xx = false, gt = false, lt = false, ch = false;
        int i = 2;
        for (; i < a.length; i++) {
            String opt = a[i].toUpperCase(Locale.ROOT);
            if (opt.equals("NX")) {
                nx = true;
            } else if (opt.equals("XX")) {
                xx = true;
            } else if (opt.equals("GT")) {
                gt = true;
            } else if (opt.equals("LT")) {
                lt = true;
            } else if (opt.equals("CH")) {
                ch = true;
            } else if (opt.equals("INCR")) {
                throw new ErrorReply("ERR dlock-sim does not simulate ZADD INCR").raise();
            } else {
                break;
            }
        }
        int pairs = a.length - i;
        if (pairs == 0 || pairs % 2 != 0) {
            throw ErrorReply.SYNTAX.raise();
        }
        if (nx && xx) {
            throw new ErrorReply("ERR XX and NX options at the same time are not compatible").raise();
        }
        if ((gt && nx) || (lt && nx) || (gt && lt)) {
            throw new ErrorReply("ERR GT, LT, and/or NX options at the same time are not compatible").raise();
        }
        double[] scores = new double[pairs / 2];
        for (int k = 0; k < scores.length; k++) {
            scores[k] = parseScore(a[i + 2 * k]);
        }
        ZSet z = keys.zset(a[1], !xx);
        if (z == null) {
            return 0L;
        }
        long added = 0, changed = 0;
        for (int k = 0; k < scores.length; k++) {
            String member = a[i + 2 * k + 1];
            Double old = z.score(member);
            if (old == null) {
                if (!xx) {
                    z.put(member, scores[k]);
                    added++;
                }
            } else if (!nx && old != scores[k] && !(gt && scores[k] < old) && !(lt && scores[k] > old)) {
                z.put(member, scores[k]);
                changed++;
            }
        }
        keys.deleteIfEmpty(a[1], z.size());
        return ch ? added + changed : added;
    }

    /** Parses a score as Redis's {@code strtod} check does: a number, or inf, without spaces; not NaN. */
    static double parseScore(String s) {
        String t = s.toLowerCase(Locale.ROOT);
        if (t.equals("inf") || t.equals("+inf") || t.equals("infinity") || t.equals("+infinity")) {
            return Double.POSITIVE_INFINITY;
        }
        if (t.equals("-inf") || t.equals("-infinity")) {
            return Double.NEGATIVE_INFINITY;
        }
        if (t.isEmpty()
                || Character.isWhitespace(t.charAt(0))
                || Character.isWhitespace(t.charAt(t.length() - 1))
                || t.endsWith("d")
                || t.endsWith("f")
                || t.contains("nan")) {
            throw ErrorReply.NOT_FLOAT.raise();
        }
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw ErrorReply.NOT_FLOAT.raise();
        }
    }

    private Object zrange(String[] a) {
        boolean withScores = false;
        for (int i = 4; i < a.length; i++) {
            if (a[i].equalsIgnoreCase("WITHSCORES")) {
                withScores = true;
            } else {
                throw new ErrorReply("ERR dlock-sim simulates ZRANGE by index only, not " + a[i]).raise();
            }
        }
        long start = Commands.parseLong(a[2]);
        long stop = Commands.parseLong(a[3]);
        ZSet z = keys.zset(a[1], false);
        List<Object> out = new ArrayList<>();
        if (z == null) {
            return out;
        }
        long n = z.size();
        if (start < 0) {
            start = Math.max(0, start + n);
        }
        if (stop < 0) {
            stop += n;
        }
        if (start > stop || start >= n) {
            return out;
        }
        stop = Math.min(stop, n - 1);
        for (ZSet.Element e : z.range(start, stop)) {
            out.add(e.member());
            if (withScores) {
                out.add(formatScore(e.score()));
            }
        }
        return out;
    }

    /** A score as Redis prints one in RESP2: an integer without a point, else {@code %.17g}. */
    static String formatScore(double d) {
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e17) {
            return Long.toString((long) d);
        }
        return LuaNumbers.g17(d);
    }

    /**
     * One page of {@code SCAN}. Redis walks its hash table; the simulation walks the keys in the order of a fixed
     * 62-bit hash of each key (FNV-1a), the cursor being the hash to go on from, so that a key present for the whole
     * walk is returned, whatever is added or deleted meanwhile, as {@code SCAN} guarantees. Pages are not Redis's.
     */
    private Object scan(String[] a) {
        long cursor;
        try {
            cursor = Long.parseUnsignedLong(a[1]);
        } catch (NumberFormatException e) {
            throw new ErrorReply("ERR invalid cursor").raise();
        }
        String pattern = null;
        String type = null;
        long count = 10;
        for (int i = 2; i < a.length; i++) {
            String opt = a[i].toUpperCase(Locale.ROOT);
            if (i + 1 >= a.length) {
                throw ErrorReply.SYNTAX.raise();
            }
            if (opt.equals("COUNT")) {
                count = Commands.parseLong(a[++i]);
                if (count < 1) {
                    throw ErrorReply.SYNTAX.raise();
                }
            } else if (opt.equals("MATCH")) {
                pattern = a[++i];
            } else if (opt.equals("TYPE")) {
                type = a[++i];
            } else {
                throw ErrorReply.SYNTAX.raise();
            }
        }
        TreeMap<Long, List<String>> byHash = new TreeMap<>();
        for (String key : keys.rawKeys()) {
            long h = hash(key);
            if (h >= cursor) {
                byHash.computeIfAbsent(h, x -> new ArrayList<>()).add(key);
            }
        }
        List<Object> found = new ArrayList<>();
        long seen = 0;
        long next = 0;
        for (Map.Entry<Long, List<String>> group : byHash.entrySet()) {
            if (seen >= count) {
                next = group.getKey();
                break;
            }
            group.getValue().sort(Glob::compareBytes);
            for (String key : group.getValue()) {
                seen++;
                Object value = keys.get(key);
                if (value != null
                        && (pattern == null || Glob.matches(pattern, key))
                        && (type == null || type.equalsIgnoreCase(Keyspace.type(value)))) {
                    found.add(key);
                }
            }
        }
        return Commands.list(Long.toUnsignedString(next), found);
    }

    /** FNV-1a over the key's UTF-8 bytes, masked to 62 bits (never 0 for a cursor to resume at: 0 ends the walk). */
    static long hash(String key) {
        long h = 0xcbf29ce484222325L;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h &= 0x3fffffffffffffffL;
        return h == 0 ? 1 : h;
    }

    static LinkedHashMap<String, String> copy(Map<String, String> h) {
        return new LinkedHashMap<>(h);
    }
}
