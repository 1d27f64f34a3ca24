package dev.dlock.internal.redlock;

import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.script.Scripts;
import dev.dlock.spi.Script;

/**
 * The Redlock scripts ({@code redlock-*.lua}, beside {@link Scripts}' own) and the keys of a lock on
 * each node. A Redlock lock lives under its own keys, apart from the queue-based lock of the same name:
 * {@code <lock key>:redlock} holds the owner id as a string with a PX expiry, {@code
 * <lock key>:redlock-fence} the node's fencing counter.
 */
final class RedlockScripts {
    static final Script ACQUIRE = Scripts.load("redlock-acquire", Script.Reply.ARRAY);
    static final Script RELEASE = Scripts.load("redlock-release", Script.Reply.INTEGER);
    static final Script RENEW = Scripts.load("redlock-renew", Script.Reply.INTEGER);
    static final Script FENCE = Scripts.load("redlock-fence", Script.Reply.INTEGER);
    static final Script INFO = Scripts.load("redlock-info", Script.Reply.ARRAY);
    static final Script FORCE = Scripts.load("redlock-force", Script.Reply.ARRAY);

    private RedlockScripts() {}

    /** The two keys of a lock on every node: the lock, then the fencing counter. */
    static String[] keys(String prefix, String name) {
        String lock = LockKeys.of(prefix, name).lock() + ":redlock";
        return new String[] {lock, lock + "-fence"};
    }

    /** The lock key alone, for the scripts that take only it. */
    static String[] lockKey(String[] keys) {
        return new String[] {keys[0]};
    }
}
