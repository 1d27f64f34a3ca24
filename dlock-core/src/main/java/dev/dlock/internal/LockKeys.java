package dev.dlock.internal;

/**
 * The Redis names of one lock. All share the hash tag {@code {name}}, so in a cluster they live in
 * one slot: the tag is the text between the first brace and the next closing brace, and every key
 * here starts with the same {@code prefix:{name}}.
 */
record LockKeys(String name, String lock, String fence, String channel) {
    static LockKeys of(String prefix, String name) {
        String base = prefix + ":{" + name + "}";
        return new LockKeys(name, base, base + ":fence", base + ":wake");
    }
}
