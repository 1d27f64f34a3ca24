package dev.dlock.internal;

/**
 * The Redis names of one lock. All share the hash tag {@code {name}}, so in a cluster they live in
 * one slot: the tag is the text between the first brace and the next closing brace, and every key
 * here starts with the same {@code prefix:{name}}.
 *
 * @param name the lock name
 * @param lock the lock hash
 * @param fence the fencing counter
 * @param channel the stem of the wake-up channels: each client waits on {@code channel:<client id>}
 * @param queue the waiters' queue (a sorted set, FIFO)
 * @param entries the waiters' queue entries (a hash: expiry and lease time per waiter)
 * @param scriptKeys the four keys the acquire, release and pass scripts take, in their order: one
 *     array for every call (the transport SPI lets the transport keep it; nobody changes it)
 */
record LockKeys(
        String name, String lock, String fence, String channel, String queue, String entries, String[] scriptKeys) {
    static LockKeys of(String prefix, String name) {
        String base = prefix + ":{" + name + "}";
        String lock = base;
        String fence = base + ":fence";
        String queue = base + ":q";
        String entries = base + ":qe";
        return new LockKeys(
                name, lock, fence, base + ":wake", queue, entries, new String[] {lock, fence, queue, entries});
    }
}
