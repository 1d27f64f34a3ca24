package dev.dlock.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The keys of one simulated server: values ({@code String} for a string, {@code LinkedHashMap} for a hash, in the
 * insertion order a small Redis hash keeps, {@link ZSet} for a sorted set) and their expiry in ms of the server's
 * clock. Expiry is lazy, as Redis's is on access: a key whose time is past ({@code now > expiry}, as Redis compares)
 * is deleted by the first lookup that meets it, so it is absent to every command. Not thread-safe.
 */
final class Keyspace {
    private final LinkedHashMap<String, Object> data = new LinkedHashMap<>();
    // lookup only: no reply or stored order comes from this map's iteration
    private final Map<String, Long> expires = new HashMap<>();
    private final LongSupplier now;

    Keyspace(LongSupplier now) {
        this.now = now;
    }

    long now() {
        return now.getAsLong();
    }

    /** The live value of a key, or null; deletes the key if it expired. */
    Object get(String key) {
        Object value = data.get(key);
        if (value == null) {
            return null;
        }
        Long when = expires.get(key);
        if (when != null && now.getAsLong() > when) {
            delete(key);
            return null;
        }
        return value;
    }

    String string(String key) {
        Object v = get(key);
        if (v == null || v instanceof String) {
            return (String) v;
        }
        throw ErrorReply.WRONGTYPE.raise();
    }

    @SuppressWarnings("unchecked")
    LinkedHashMap<String, String> hash(String key, boolean create) {
        Object v = get(key);
        if (v == null) {
            if (!create) {
                return null;
            }
            LinkedHashMap<String, String> h = new LinkedHashMap<>();
            data.put(key, h);
            return h;
        }
        if (v instanceof LinkedHashMap) {
            return (LinkedHashMap<String, String>) v;
        }
        throw ErrorReply.WRONGTYPE.raise();
    }

    ZSet zset(String key, boolean create) {
        Object v = get(key);
        if (v == null) {
            if (!create) {
                return null;
            }
            ZSet z = new ZSet();
            data.put(key, z);
            return z;
        }
        if (v instanceof ZSet z) {
            return z;
        }
        throw ErrorReply.WRONGTYPE.raise();
    }

    /** Sets a string value, dropping the key's expiry unless {@code keepTtl} (as {@code SET} does). */
    void putString(String key, String value, boolean keepTtl) {
        Object old = get(key);
        if (old != null && !(old instanceof String)) {
            data.remove(key); // a new key of another type: Redis's dict entry is replaced, not reordered
        }
        data.put(key, value);
        if (!keepTtl) {
            expires.remove(key);
        }
    }

    /** Replaces a string's value in place, keeping its expiry ({@code INCR}). */
    void overwriteString(String key, String value) {
        data.put(key, value);
    }

    boolean delete(String key) {
        expires.remove(key);
        return data.remove(key) != null;
    }

    /** Deletes a hash or sorted set left empty, as Redis does after the last field or member is removed. */
    void deleteIfEmpty(String key, int size) {
        if (size == 0) {
            delete(key);
        }
    }

    /** The expiry in ms of the server clock, or -1 for none; the key must be live. */
    long expiry(String key) {
        Long when = expires.get(key);
        return when == null ? -1 : when;
    }

    void expire(String key, long when) {
        expires.put(key, when);
    }

    boolean persist(String key) {
        return expires.remove(key) != null;
    }

    static String type(Object value) {
        if (value == null) {
            return "none";
        }
        if (value instanceof String) {
            return "string";
        }
        return value instanceof ZSet ? "zset" : "hash";
    }

    /** Every key, expired ones included (callers filter through {@link #get}), in insertion order. */
    Iterable<String> rawKeys() {
        return new java.util.ArrayList<>(data.keySet());
    }

    /** Drops the keys whose time is past, as a restarted server that loads its data does. */
    void dropExpired() {
        for (String key : rawKeys()) {
            get(key);
        }
    }

    /**
     * A key's state as a replica receives it: a copy of its value (null: absent) and its absolute expiry (-1: none),
     * as stored, whether or not it has expired (a replica does not expire keys on its own: its reads of a key past
     * its time return nothing, as {@link #get} here does).
     */
    record State(String key, Object value, long expiry) {}

    /** {@code key}'s state as stored now, its value copied. */
    State state(String key) {
        Object v = data.get(key);
        Long when = expires.get(key);
        Object copy = v instanceof LinkedHashMap<?, ?> h ? new LinkedHashMap<>(h) : v instanceof ZSet z ? z.copy() : v;
        return new State(key, copy, v == null || when == null ? -1 : when);
    }

    /** Sets {@code key} to a state from {@link #state}: its value (a copy of it) and expiry, or absent. */
    void load(State state) {
        String key = state.key();
        if (state.value() == null) {
            delete(key);
            return;
        }
        Object v = state.value();
        data.put(key, v instanceof LinkedHashMap<?, ?> h ? new LinkedHashMap<>(h) : v instanceof ZSet z ? z.copy() : v);
        if (state.expiry() < 0) {
            expires.remove(key);
        } else {
            expires.put(key, state.expiry());
        }
    }

    /** The keys written since {@link #written()} last took them, in order; null while nobody replicates them. */
    private LinkedHashSet<String> written;

    /** Starts or stops noting the keys written, for a replica. */
    void noteWrites(boolean on) {
        written = on ? new LinkedHashSet<>() : null;
    }

    /** Whether writes are noted. */
    boolean notingWrites() {
        return written != null;
    }

    /** Notes that a command wrote {@code key} (its value or its expiry), if writes are noted. */
    void wrote(String key) {
        if (written != null) {
            written.add(key);
        }
    }

    /** Notes that a command wrote every key there is, if writes are noted ({@code FLUSHALL}). */
    void wroteAll() {
        if (written != null) {
            written.addAll(data.keySet());
        }
    }

    /** The keys written since the last call (empty if none, or if writes are not noted), and forgets them. */
    List<String> written() {
        if (written == null || written.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(written);
        written.clear();
        return out;
    }

    void clear() {
        data.clear();
        expires.clear();
    }

    int size() {
        return data.size();
    }
}
