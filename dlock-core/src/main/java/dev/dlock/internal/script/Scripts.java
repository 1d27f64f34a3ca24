package dev.dlock.internal.script;

import dev.dlock.spi.Script;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The Lua scripts, loaded once from resources beside this class. */
public final class Scripts {
    public static final Script ACQUIRE = loadWithCommon("acquire", Script.Reply.INTEGER);
    public static final Script RELEASE = loadWithCommon("release", Script.Reply.INTEGER);
    public static final Script PASS = loadWithCommon("pass", Script.Reply.INTEGER);
    public static final Script RENEW = load("renew", Script.Reply.ARRAY);
    public static final Script INFO = loadWith("info", Script.Reply.ARRAY, "common", "queue-read");
    public static final Script SERVER_POLICY = load("server-policy", Script.Reply.ARRAY);
    public static final Script SEMAPHORE_ACQUIRE = loadShared("semaphore-acquire", Script.Reply.INTEGER);
    public static final Script SEMAPHORE_RELEASE = loadShared("semaphore-release", Script.Reply.INTEGER);
    public static final Script SEMAPHORE_RENEW = load("semaphore-renew", Script.Reply.ARRAY);
    public static final Script SEMAPHORE_SET = loadShared("semaphore-set", Script.Reply.INTEGER);
    public static final Script RW_ACQUIRE = loadShared("rw-acquire", Script.Reply.INTEGER);
    public static final Script RW_RELEASE = loadShared("rw-release", Script.Reply.INTEGER);
    public static final Script SHARED_INFO =
            loadWith("shared-info", Script.Reply.ARRAY, "common", "shared", "queue-read");

    private static final String PUBLISH = "redis.call('PUBLISH', ";
    /** The line of {@code shared.lua} that keeps the holders' hash at least as long as it was. */
    static final String HOLDERS_EXPIRY_LINE = "  raise_expiry(holds, keep)\n";

    private static final String HOLDERS_EXPIRY_SET = "  redis.call('PEXPIRE', holds, keep)\n";
    private static final java.util.Map<Script, Script> HOLDERS_LOWERED = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.Map<Script, Script> SHARDED = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.Map<Script, Script> CROSS_SLOT = new java.util.concurrent.ConcurrentHashMap<>();
    static final String KEYS_LINE = "local keys = KEYS";
    private static final String CROSS_SLOT_KEYS =
            "local keys = {KEYS[1]}\n" + "local n = #ARGV / 2\n" + "for i = 2, n do keys[i] = ARGV[n + i] end";

    private Scripts() {}

    /**
     * The script as it must run where hand-off messages go through sharded pub/sub (a Redis 7 cluster,
     * {@code Transport.shardedPubSub()}): {@code SPUBLISH} in place of {@code PUBLISH}. The channel is
     * under the lock's hash tag, so it is in the slot of the script's keys, as a script requires.
     * Scripts that publish nothing are returned as they are.
     */
    public static Script sharded(Script script) {
        if (!script.source().contains(PUBLISH)) {
            return script;
        }
        return SHARDED.computeIfAbsent(
                script,
                s -> Script.of(
                        s.name() + "-sharded", s.source().replace(PUBLISH, "redis.call('SPUBLISH', "), s.reply()));
    }

    /**
     * The script as the negative control {@code holders-expiry-lowered} runs it (Controls): the holders'
     * hash of a shared lock is set to expire in max(7 days, this holder's lease) at every holder's write,
     * even when that lowers it. Scripts without {@code shared.lua} are returned as they are.
     *
     * @throws IllegalStateException if a script has {@code shared.lua}'s holder write but not the line
     *     {@link #HOLDERS_EXPIRY_LINE}, so the control could not re-introduce the defect
     */
    static Script holdersExpiryLowered(Script script) {
        if (!script.source().contains("local function shared_hold(")) {
            return script;
        }
        return HOLDERS_LOWERED.computeIfAbsent(script, s -> {
            if (!s.source().contains(HOLDERS_EXPIRY_LINE)) {
                throw new IllegalStateException(s.name() + " has no line '" + HOLDERS_EXPIRY_LINE.strip()
                        + "' for the control holders-expiry-lowered to replace");
            }
            return Script.of(
                    s.name() + "-holders-expiry-lowered",
                    s.source().replace(HOLDERS_EXPIRY_LINE, HOLDERS_EXPIRY_SET),
                    s.reply());
        });
    }

    /**
     * A renewal script as it runs over the keys of several slots of one cluster node (Redis 7.0+,
     * {@code Transport.crossSlotNode}): flagged {@code allow-cross-slot-keys}, it is routed by its one
     * declared key and reads the others from its arguments, after the owners: {@code KEYS[1]}, {@code
     * ARGV[1]} lease ms, {@code ARGV[2..n+1]} the owners of keys 1..n, {@code ARGV[n+2..2n]} keys 2..n.
     * A key whose slot is not on the node fails the whole call (the watchdog then renews by slot).
     *
     * @throws IllegalArgumentException for a script that does not read its keys through the line
     *     {@value #KEYS_LINE}
     */
    public static Script crossSlot(Script script) {
        return CROSS_SLOT.computeIfAbsent(script, s -> {
            if (!s.source().contains(KEYS_LINE)) {
                throw new IllegalArgumentException(s.name() + " does not read its keys as a renewal script does");
            }
            return Script.of(
                    s.name() + "-cross-slot",
                    "#!lua flags=allow-cross-slot-keys\n" + s.source().replace(KEYS_LINE, CROSS_SLOT_KEYS),
                    s.reply());
        });
    }

    /** Loads {@code name.lua}. */
    public static Script load(String name, Script.Reply reply) {
        return Script.of(name, source(name), reply);
    }

    /** Loads {@code name.lua} with the shared constants and functions of {@code common.lua} before it. */
    static Script loadWithCommon(String name, Script.Reply reply) {
        return Script.of(name, source("common") + "\n" + source(name), reply);
    }

    /** Loads {@code name.lua} after {@code common.lua} and the shared-lock model's {@code shared.lua}. */
    public static Script loadShared(String name, Script.Reply reply) {
        return Script.of(name, source("common") + "\n" + source("shared") + "\n" + source(name), reply);
    }

    /** Loads {@code name.lua} after the named scripts, in their order (functions they define). */
    public static Script loadWith(String name, Script.Reply reply, String... before) {
        StringBuilder text = new StringBuilder();
        for (String b : before) {
            text.append(source(b)).append('\n');
        }
        return Script.of(name, text.append(source(name)).toString(), reply);
    }

    private static String source(String name) {
        try (InputStream in = Scripts.class.getResourceAsStream(name + ".lua")) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name + ".lua");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
