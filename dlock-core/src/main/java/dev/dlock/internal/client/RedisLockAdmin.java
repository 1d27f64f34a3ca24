package dev.dlock.internal.client;

import dev.dlock.LockAdmin;
import dev.dlock.LockInfo;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.script.ScriptRunner;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.script.SemaphoreKeys;
import dev.dlock.internal.script.Snapshots;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.Glob;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.spi.Script;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link LockAdmin} on the admin scripts: each call is one script (a page of {@code SCAN} for {@link
 * #list}), run on the client's connection, over every kind of name (a mutex's hash, a shared lock's
 * record: admin-read.lua). Waiters are counted from the name's queue. Thread-safe: it
 * holds only immutable state and the thread-safe script runner.
 */
final class RedisLockAdmin implements LockAdmin {
    private static final Script STATUS =
            Scripts.loadWith("admin-status", Script.Reply.ARRAY, "common", "queue-read", "admin-read");
    static final Script SCAN = Scripts.loadWith("admin-scan", Script.Reply.ARRAY, "common", "queue-read", "admin-read");
    private static final Script FORCE_RELEASE = Scripts.loadShared("admin-force-release", Script.Reply.ARRAY);
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
    public LockInfo status(String name) {
        String[] keys = keys(name);
        List<?> reply =
                (List<?>) scripts.await(scripts.eval(STATUS, keys, new String[] {Snapshots.QUEUE_SHOWN}), keys[0]);
        return state(name, reply, (Long) reply.get(5), Snapshots.queue((List<?>) reply.get(4)));
    }

    @Override
    public List<LockInfo> list(String pattern) {
        Args.notBlank("pattern", pattern);
        lifecycle.checkOpen();
        // Both key forms of LockKeys ("prefix:{name}", "prefix:^{hex}") in one walk; names are matched here.
        String match = escapeGlob(keyPrefix) + ":[{^]*}";
        List<LockInfo> held = new ArrayList<>();
        for (int master = 0; master < scripts.masterCount(); master++) {
            scan(master, match, pattern, held);
        }
        return held;
    }

    /** Walks one master's keys with SCAN pages (a cursor is only good on the node that returned it). */
    private void scan(int master, String match, String pattern, List<LockInfo> held) {
        String cursor = "0";
        do {
            String[] args = {cursor, match, SCAN_COUNT};
            List<?> page = (List<?>) scripts.await(scripts.evalOnMaster(master, SCAN, args), match);
            cursor = (String) page.get(0);
            for (Object entry : page.subList(1, page.size())) {
                List<?> lock = (List<?>) entry;
                String name = LockKeys.nameOf(keyPrefix, (String) lock.get(0));
                if (name != null && Glob.matches(pattern, name)) {
                    held.add(state(name, lock.subList(1, lock.size()), 0, List.of()));
                }
            }
        } while (!cursor.equals("0"));
    }

    @Override
    public ForcedUnlock forceUnlock(String name) {
        String[] keys = keys(name);
        List<?> reply = (List<?>) run(FORCE_RELEASE, keys, keys[0]);
        boolean handedOver = (Long) reply.get(2) > 0;
        List<Holder> removed = Snapshots.holders((List<?>) reply.get(3));
        if (removed.isEmpty()) {
            return new ForcedUnlock(Optional.empty(), handedOver);
        }
        // the queue is not read: the hand-off already changed it
        Holder latest = removed.get(removed.size() - 1);
        return new ForcedUnlock(
                Optional.of(new LockInfo(
                        name,
                        (String) reply.get(0),
                        Optional.of(latest.ownerId()),
                        latest.remaining(),
                        latest.fencingToken(),
                        Math.toIntExact((Long) reply.get(1)),
                        removed,
                        0,
                        List.of())),
                handedOver);
    }

    /**
     * A state from admin_read's reply {kind, capacity, waiters, holders, ...}: the holder with the
     * highest token stands for the name in the mutex-shaped components.
     */
    private static LockInfo state(String name, List<?> reply, long lastToken, List<Waiter> queue) {
        List<Holder> holders = Snapshots.holders((List<?>) reply.get(3));
        Optional<Holder> latest = holders.isEmpty() ? Optional.empty() : Optional.of(holders.get(holders.size() - 1));
        return new LockInfo(
                name,
                (String) reply.get(0),
                latest.map(Holder::ownerId),
                latest.map(Holder::remaining).orElse(Duration.ZERO),
                latest.map(Holder::fencingToken).orElse(lastToken),
                Math.toIntExact((Long) reply.get(1)),
                holders,
                (Long) reply.get(2),
                queue);
    }

    @Override
    public long purge(String name) {
        String[] keys = keys(name);
        return (Long) run(PURGE, keys, keys[0]);
    }

    @Override
    public String keyBeside(String name, String suffix) {
        Args.notBlank("suffix", suffix);
        return keys(name)[0] + ":" + suffix;
    }

    private Object run(Script script, String[] keys, String key) {
        return scripts.await(scripts.eval(script, keys, new String[0]), key);
    }

    /** The seven keys of a name of any kind, in admin-read.lua's order. */
    private String[] keys(String name) {
        Args.name(name, maxNameLength);
        lifecycle.checkOpen();
        LockKeys mutex = LockKeys.of(keyPrefix, name);
        String[] shared = SemaphoreKeys.of(keyPrefix, name).scriptKeys();
        return new String[] {
            mutex.lock(), mutex.fence(), mutex.queue(), mutex.entries(), shared[2], shared[3], shared[4]
        };
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
