package dev.dlock.internal.script;

import dev.dlock.spi.Script;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
    private static final Map<Script, Script> HOLDERS_LOWERED = new ConcurrentHashMap<>();
    /**
     * What the negative control {@code lost-set-permits} replaces, as it was before the fix (issue 24, defect 5):
     * in {@code shared.lua} the record is not kept by holders' and waiters' writes, a lost semaphore record is made
     * again from the count in code, and every use sets the record to 7 idle days, a changed count too; in {@code
     * semaphore-set.lua} a changed count expires as an idle one; in {@code semaphore-renew.lua} a renewal does not
     * keep the record.
     */
    static final List<Map.Entry<String, String>> LOST_SET_PERMITS_EDITS = List.of(
            Map.entry(
                    "local function keep_record(record, ms)\n",
                    "local function keep_record(record, ms)\n  do return end\n"),
            Map.entry(
                    "    if kind == 'semaphore' and not remake\n",
                    "    if false and kind == 'semaphore' and not remake\n"),
            Map.entry(
                    "  if c ~= d then\n"
                            + "    if redis.call('PTTL', key) ~= -1 then redis.call('PERSIST', key) end"
                            + " -- one written before records kept it\n"
                            + "  else\n"
                            + "    keep_record(key, tonumber(FENCE_IDLE_MS))\n"
                            + "  end\n",
                    "  redis.call('PEXPIRE', key, FENCE_IDLE_MS)\n"),
            Map.entry(
                    "if ARGV[2] == ARGV[1] then\n"
                            + "  redis.call('SET', KEYS[1], 'semaphore ' .. ARGV[1] .. ' ' .. ARGV[2], 'PX', FENCE_IDLE_MS)\n"
                            + "  for i = 3, 5 do keep_record(KEYS[1], redis.call('PTTL', KEYS[i])) end\n"
                            + "else\n"
                            + "  redis.call('SET', KEYS[1], 'semaphore ' .. ARGV[1] .. ' ' .. ARGV[2])\n"
                            + "end\n",
                    "redis.call('SET', KEYS[1], 'semaphore ' .. ARGV[1] .. ' ' .. ARGV[2], 'PX', FENCE_IDLE_MS)\n"),
            Map.entry("      if record and redis.call('TYPE', record).ok == 'string' then\n", "      if false then\n"));

    private static final Map<Script, Script> LOST_SET_PERMITS = new ConcurrentHashMap<>();
    private static final Map<Script, Script> SHARDED = new ConcurrentHashMap<>();
    private static final Map<Script, Script> CROSS_SLOT = new ConcurrentHashMap<>();
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
        return HOLDERS_LOWERED.computeIfAbsent(
                script,
                s -> edited(s, "holders-expiry-lowered", List.of(Map.entry(HOLDERS_EXPIRY_LINE, HOLDERS_EXPIRY_SET))));
    }

    /**
     * The script as the negative control {@code lost-set-permits} runs it (Controls): a shared lock's record as it
     * was before issue 24's defect 5 was fixed ({@link #LOST_SET_PERMITS_EDITS}), so a count set by {@code
     * setPermits} expires 7 days after the name's last acquire, info or setPermits even while a permit is held, and
     * the next acquire makes the record again with the count in code. Scripts without {@code shared.lua} and other
     * than the permits' renewal are returned as they are.
     *
     * @throws IllegalStateException if a script has {@code shared.lua} (or is the renewal) but lacks a text that
     *     the control replaces, so the control could not re-introduce the defect
     */
    static Script lostSetPermits(Script script) {
        boolean shared = script.source().contains("local function shared_record(");
        boolean renew = script.source().contains("local record = string.match(key, '^(.*):holds$')");
        if (!shared && !renew) {
            return script;
        }
        // the edits that apply: shared.lua's three, semaphore-set.lua's besides them, or the renewal's own
        int from = renew ? 4 : 0;
        int to = renew ? 5 : script.name().startsWith("semaphore-set") ? 4 : 3;
        return LOST_SET_PERMITS.computeIfAbsent(
                script, s -> edited(s, "lost-set-permits", LOST_SET_PERMITS_EDITS.subList(from, to)));
    }

    /**
     * {@code script} with each edit's text replaced, named after the negative control {@code control} that runs it.
     *
     * @throws IllegalStateException if the script lacks a text an edit replaces, so the control could not re-introduce
     *     its defect
     */
    private static Script edited(Script script, String control, List<Map.Entry<String, String>> edits) {
        String source = script.source();
        for (Map.Entry<String, String> edit : edits) {
            if (!source.contains(edit.getKey())) {
                throw new IllegalStateException(script.name() + " has no text '"
                        + edit.getKey().strip() + "' for the control " + control + " to replace");
            }
            source = source.replace(edit.getKey(), edit.getValue());
        }
        return Script.of(script.name() + "-" + control, source, script.reply());
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
