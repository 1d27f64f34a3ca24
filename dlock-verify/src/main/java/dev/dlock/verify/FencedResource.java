package dev.dlock.verify;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The shared resource the workload guards: a list kept in one Redis string, read and written only through fenced Lua
 * scripts on its own keys (never the lock's keys). The fence refuses a token lower than the highest it has seen and
 * logs every refusal; every accepted operation's token is logged in server order, which is what checker 2 reads.
 * Instances are immutable; the commands passed in carry the thread-safety of their connection.
 */
final class FencedResource {

    static final String READ_SCRIPT = script("fenced_read.lua");
    static final String WRITE_SCRIPT = script("fenced_write.lua");

    private final String fence;
    private final String list;
    private final String rejections;
    private final String accepted;
    private final boolean check;

    /**
     * @param base key base, for example {@code dlock-verify:res:{name}}
     * @param check {@code false} only for the negative control whose fence accepts everything
     */
    FencedResource(String base, boolean check) {
        this.fence = base + ":fence";
        this.list = base + ":list";
        this.rejections = base + ":rejections";
        this.accepted = base + ":accepted";
        this.check = check;
    }

    String[] keys() {
        return new String[] {fence, list, rejections, accepted};
    }

    /**
     * Returns the list's value, or {@code null} when the fence refused the token.
     *
     * @param shared a read hold of a read-write lock: checked against the fence, but it neither raises the fence nor
     *     is logged as accepted (overlapping readers' tokens arrive in any order)
     */
    String read(RedisCommands<String, String> redis, long token, String reader, boolean shared) {
        List<Object> reply = redis.eval(
                READ_SCRIPT,
                ScriptOutputType.MULTI,
                keys(),
                Long.toString(token),
                check ? "1" : "0",
                reader,
                shared ? "1" : "0");
        return ((Long) reply.get(0)) == 1L ? String.valueOf(reply.get(1)) : null;
    }

    /** Writes {@code newValue}; returns {@code false} when the fence refused the token. */
    boolean write(RedisCommands<String, String> redis, long token, String element, String newValue) {
        Long reply = redis.eval(
                WRITE_SCRIPT,
                ScriptOutputType.INTEGER,
                keys(),
                Long.toString(token),
                check ? "1" : "0",
                element,
                newValue);
        return reply == 1L;
    }

    /** Reads the final state for the checkers. */
    Snapshot snapshot(RedisCommands<String, String> redis) {
        String value = redis.get(list);
        List<String> acceptedTokens = redis.lrange(accepted, 0, -1);
        List<String> rejected = redis.lrange(rejections, 0, -1);
        return new Snapshot(
                value == null ? "" : value,
                acceptedTokens.stream().map(Long::parseLong).toList(),
                rejected);
    }

    void delete(RedisCommands<String, String> redis) {
        redis.del(keys());
    }

    /**
     * The resource's final state.
     *
     * @param list the list value: comma-terminated elements
     * @param acceptedTokens tokens of accepted reads and writes, in server order
     * @param rejections one entry per refusal: {@code read|write:token:fence:label-or-element}
     */
    record Snapshot(String list, List<Long> acceptedTokens, List<String> rejections) {
        List<String> elements() {
            return list.isEmpty() ? List.of() : List.of(list.split(","));
        }
    }

    private static String script(String name) {
        try (InputStream in = FencedResource.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
