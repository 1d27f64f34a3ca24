package dev.dlock.internal.script;

import java.nio.charset.StandardCharsets;

/**
 * The Redis names of one lock. All share one hash tag, so in a cluster they live in one slot (Redis
 * hashes the text between the first '{' and the next '}', when that text is not empty): every key
 * here starts with the lock's own key. That key is {@code prefix:{name}}, except for a name that
 * starts with '}', whose tag would be empty (each key would then hash whole, to a slot of its own):
 * such a name's key is {@code prefix:^{<hex of the name's UTF-8 bytes>}}. No other name's key starts
 * with {@code prefix:^}, so the two forms never meet.
 *
 * @param name the lock name
 * @param lock the lock hash
 * @param fence the fencing counter
 * @param channel the stem of the wake-up channels: each client waits on {@code channel:<client id>}
 * @param queue the waiters' queue (a sorted set, FIFO)
 * @param entries the waiters' queue entries (a hash: expiry, lease time and wait id per waiter)
 * @param scriptKeys the four keys the acquire, release and pass scripts take, in their order: one
 *     array for every call (the transport SPI lets the transport keep it; nobody changes it)
 */
public record LockKeys(
        String name, String lock, String fence, String channel, String queue, String entries, String[] scriptKeys) {
    /** What the queue's key adds to the lock's key. */
    static final String QUEUE_SUFFIX = ":q";

    public static LockKeys of(String prefix, String name) {
        String lock = name.startsWith("}") ? prefix + ":^{" + hex(name) + "}" : prefix + ":{" + name + "}";
        String fence = lock + ":fence";
        String queue = lock + QUEUE_SUFFIX;
        String entries = lock + ":qe";
        return new LockKeys(
                name, lock, fence, lock + ":wake", queue, entries, new String[] {lock, fence, queue, entries});
    }

    /** The lock name whose lock hash is {@code key}, or null if {@code key} is no lock hash's name. */
    public static String nameOf(String prefix, String key) {
        String plain = prefix + ":{";
        String hexed = prefix + ":^{";
        if (!key.endsWith("}")) {
            return null;
        }
        if (key.startsWith(plain) && key.length() > plain.length() + 1) {
            return key.substring(plain.length(), key.length() - 1);
        }
        if (key.startsWith(hexed) && key.length() > hexed.length() + 1) {
            return unhex(key.substring(hexed.length(), key.length() - 1));
        }
        return null;
    }

    private static String hex(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return out.toString();
    }

    private static String unhex(String text) {
        if (text.length() % 2 != 0) {
            return null;
        }
        byte[] bytes = new byte[text.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            int hi = Character.digit(text.charAt(2 * i), 16);
            int lo = Character.digit(text.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                return null;
            }
            bytes[i] = (byte) (hi << 4 | lo);
        }
        String name = new String(bytes, StandardCharsets.UTF_8);
        return name.startsWith("}") ? name : null;
    }
}
