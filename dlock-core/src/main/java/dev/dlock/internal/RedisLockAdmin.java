package dev.dlock.internal;

import dev.dlock.LockAdmin;
import dev.dlock.spi.Script;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link LockAdmin} on the admin scripts: each call is one script (a page of {@code SCAN} for {@link
 * #list}), run on the client's connection. Waiters are counted from the lock's queue. Thread-safe: it
 * holds only immutable state and the thread-safe script runner.
 */
final class RedisLockAdmin implements LockAdmin {
    private static final Script STATUS = Scripts.loadWithCommon("admin-status", Script.Reply.ARRAY);
    private static final Script SCAN = Scripts.load("admin-scan", Script.Reply.ARRAY);
    private static final Script FORCE_RELEASE = Scripts.loadWithCommon("admin-force-release", Script.Reply.ARRAY);
    private static final Script PURGE = Scripts.load("admin-purge", Script.Reply.INTEGER);
    private static final String SCAN_COUNT = "200";

    private final ScriptRunner scripts;
    private final String keyPrefix;
    private final int maxNameLength;
    private final Lifecycle lifecycle;

    RedisLockAdmin(ScriptRunner scripts, String keyPrefix, int maxNameLength, Lifecycle lifecycle) {
        this.scripts = scripts;
        this.keyPrefix = keyPrefix;
        this.maxNameLength = maxNameLength;
        this.lifecycle = lifecycle;
    }

    @Override
    public LockState status(String name) {
        LockKeys keys = keys(name);
        List<?> reply = (List<?>) run(STATUS, new String[] {keys.lock(), keys.fence(), keys.queue()}, keys.lock());
        Optional<String> holder = reply.size() > 3 ? Optional.of((String) reply.get(3)) : Optional.empty();
        return new LockState(name, holder, millis(reply.get(0)), (Long) reply.get(1), (Long) reply.get(2));
    }

    @Override
    public List<LockState> list(String pattern) {
        Args.notBlank("pattern", pattern);
        lifecycle.checkOpen();
        // Both key forms of LockKeys ("prefix:{name}", "prefix:^{hex}") in one walk; names are matched here.
        String match = escapeGlob(keyPrefix) + ":[{^]*}";
        List<LockState> held = new ArrayList<>();
        for (int master = 0; master < scripts.masterCount(); master++) {
            scan(master, match, pattern, held);
        }
        return held;
    }

    /** Walks one master's keys with SCAN pages (a cursor is only good on the node that returned it). */
    private void scan(int master, String match, String pattern, List<LockState> held) {
        String cursor = "0";
        do {
            String[] args = {cursor, match, SCAN_COUNT, LockKeys.QUEUE_SUFFIX};
            List<?> page = (List<?>) scripts.await(scripts.evalOnMaster(master, SCAN, args), match);
            cursor = (String) page.get(0);
            for (Object entry : page.subList(1, page.size())) {
                List<?> lock = (List<?>) entry;
                String name = LockKeys.nameOf(keyPrefix, (String) lock.get(0));
                if (name != null && Glob.matches(pattern, name)) {
                    held.add(new LockState(
                            name, Optional.of((String) lock.get(1)), millis(lock.get(2)), (Long) lock.get(3), (Long)
                                    lock.get(4)));
                }
            }
        } while (!cursor.equals("0"));
    }

    @Override
    public ForcedUnlock forceUnlock(String name) {
        LockKeys keys = keys(name);
        List<?> reply = (List<?>) run(FORCE_RELEASE, keys.scriptKeys(), keys.lock());
        boolean handedOver = (Long) reply.get(3) == 1L;
        if ((Long) reply.get(0) == 0L) {
            return new ForcedUnlock(Optional.empty(), handedOver);
        }
        long queued = 0; // the removed holder's queue is not counted: the hand-off already changed it
        LockState removed = new LockState(
                name, Optional.of((String) reply.get(4)), millis(reply.get(1)), (Long) reply.get(2), queued);
        return new ForcedUnlock(Optional.of(removed), handedOver);
    }

    @Override
    public long purge(String name) {
        LockKeys keys = keys(name);
        return (Long) run(PURGE, keys.scriptKeys(), keys.lock());
    }

    @Override
    public String keyBeside(String name, String suffix) {
        Args.notBlank("suffix", suffix);
        return keys(name).lock() + ":" + suffix;
    }

    private Object run(Script script, String[] keys, String key) {
        return scripts.await(scripts.eval(script, keys, new String[0]), key);
    }

    private LockKeys keys(String name) {
        Args.name(name, maxNameLength);
        lifecycle.checkOpen();
        return LockKeys.of(keyPrefix, name);
    }

    /** A PTTL as a duration: zero when the key has none or is gone. */
    private static Duration millis(Object pttl) {
        return Duration.ofMillis(Math.max(0, (Long) pttl));
    }

    private static String escapeGlob(String text) {
        StringBuilder out = new StringBuilder(text.length() + 4);
        for (char c : text.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
