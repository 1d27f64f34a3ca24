package dev.dlock.internal.script;

/**
 * The Redis names of one semaphore (docs/lock-family.md): every key starts with the name's lock key
 * ({@link LockKeys#lock()}, {@code prefix:{name}}), so all share its hash tag and cluster slot; the
 * fencing counter and the wake-up channels are the mutex's of the same name.
 *
 * @param lock the name's {@link LockKeys}; its lock key is the semaphore's record
 * @param holds the holders (a hash: owner → permits, token and expiry in server time)
 * @param scriptKeys the five keys every {@code semaphore-*.lua} script takes, in their order
 */
public record SemaphoreKeys(LockKeys lock, String holds, String[] scriptKeys) {
    public static SemaphoreKeys of(String prefix, String name) {
        LockKeys lock = LockKeys.of(prefix, name);
        String base = lock.lock();
        String holds = base + ":holds";
        return new SemaphoreKeys(lock, holds, new String[] {base, lock.fence(), holds, base + ":sq", base + ":sqe"});
    }

    /** The record: the name's kind and count (a string). */
    public String record() {
        return lock.lock();
    }

    public String name() {
        return lock.name();
    }
}
