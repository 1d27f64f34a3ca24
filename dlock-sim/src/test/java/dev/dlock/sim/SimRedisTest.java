package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.spi.RedisReplyException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated server's commands, expiry, scripting conversions and error words (as Redis 7.0 answers). */
final class SimRedisTest {
    private final long[] now = {1_700_000_000_000L};
    private final SimRedis redis = new SimRedis(() -> now[0]);

    private Object eval(String source, String... keysThenArgs) {
        return redis.eval(source, new String[0], keysThenArgs);
    }

    @Test
    void expiry_isLazyAndUsesTheInjectedClock() {
        redis.call("SET", "k", "v", "PX", "100");
        now[0] += 100;
        assertThat(redis.call("PTTL", "k")).isEqualTo(0L); // Redis: expired only when now > expiry
        assertThat(redis.call("GET", "k")).isEqualTo("v");
        now[0] += 1;
        assertThat(redis.call("GET", "k")).isNull();
        assertThat(redis.call("PTTL", "k")).isEqualTo(-2L);
        assertThat(redis.call("TYPE", "k")).isEqualTo(new StatusReply("none"));
    }

    @Test
    void wrongType_isWordedAsRedisWordsIt() {
        redis.call("HSET", "h", "f", "v");
        assertThatThrownBy(() -> redis.call("GET", "h"))
                .isInstanceOf(RedisReplyException.class)
                .hasMessage("WRONGTYPE Operation against a key holding the wrong kind of value");
        String script = "return redis.call('GET', KEYS[1])";
        assertThatThrownBy(() -> redis.eval(script, new String[] {"h"}, new String[0]))
                .hasMessage("WRONGTYPE Operation against a key holding the wrong kind of value script: "
                        + LuaScripting.sha1(script) + ", on @user_script:1.");
    }

    @Test
    void pcall_returnsTheErrorAsATable() {
        redis.call("HSET", "h", "f", "v");
        assertThat(eval("local r = redis.pcall('GET', 'h'); return {type(r), r.err}"))
                .isEqualTo(List.of("table", "WRONGTYPE Operation against a key holding the wrong kind of value"));
    }

    @Test
    void call_raisesWithTheLineOfTheCaller() {
        redis.call("HSET", "h", "f", "v");
        String script = "local function f(k)\n  local v = redis.call('GET', k)\n  return v\nend\nreturn {f('h')}";
        assertThatThrownBy(() -> eval(script)).hasMessageEndingWith(", on @user_script:2.");
    }

    @Test
    void evalsha_unknown_isNoscript_andScriptFlushForgets() {
        assertThatThrownBy(() -> redis.evalsha("0".repeat(40), new String[0], new String[0]))
                .hasMessage("NOSCRIPT No matching script. Please use EVAL.");
        String sha = redis.scriptLoad("return 7");
        assertThat(redis.evalsha(sha, new String[0], new String[0])).isEqualTo(7L);
        redis.scriptFlush();
        assertThatThrownBy(() -> redis.evalsha(sha, new String[0], new String[0]))
                .hasMessageStartingWith("NOSCRIPT");
        redis.scriptLoad("return 7");
        redis.restart(true);
        assertThat(redis.scriptExists(sha)).isFalse();
    }

    @Test
    void luaToRedis_conversions() {
        List<Object> expected = new ArrayList<>(List.of(1L, -1L, 1L));
        expected.add(null); // false inside a table is nil, and not the end of the array (nil is)
        expected.add("x");
        expected.add(new StatusReply("st"));
        assertThat(eval("return {1.9, -1.9, true, false, 'x', {ok='st'}}")).isEqualTo(expected);
        assertThat(eval("return {1, 2, nil, 4}")).isEqualTo(List.of(1L, 2L));
        assertThat(eval("return false")).isNull();
        assertThat(eval("return nil")).isNull();
        assertThat(eval("return 3.99")).isEqualTo(3L);
        assertThat(eval("return redis.status_reply('FINE')")).isEqualTo(new StatusReply("FINE"));
        assertThatThrownBy(() -> eval("return redis.error_reply('oops')")).hasMessage("ERR oops");
        assertThatThrownBy(() -> eval("return redis.error_reply('MY oops')")).hasMessage("MY oops");
        assertThatThrownBy(() -> eval("return {err='oops'}")).hasMessage("oops");
        List<?> nested = (List<?>) eval("return {1, redis.error_reply('BAD nested')}");
        assertThat(nested.get(1)).isInstanceOf(RedisReplyException.class);
        assertThat(((RedisReplyException) nested.get(1)).getMessage()).isEqualTo("BAD nested");
    }

    @Test
    void redisToLua_conversions() {
        redis.call("SET", "s", "text");
        redis.call("HSET", "h", "a", "1", "b", "2");
        assertThat(eval("return type(redis.call('INCR', 'n'))")).isEqualTo("number");
        assertThat(eval("return type(redis.call('GET', 's'))")).isEqualTo("string");
        assertThat(eval("return redis.call('GET', 'absent') == false and 1 or 0"))
                .isEqualTo(1L);
        assertThat(eval("local t = redis.call('HGETALL', 'h'); return #t")).isEqualTo(4L);
        assertThat(eval("return redis.call('TYPE', 'h').ok")).isEqualTo("hash");
        assertThat(eval("return redis.call('SET', 'x', 'y').ok")).isEqualTo("OK");
    }

    @Test
    void numbers_keepSixtyFourBits() {
        assertThat(eval("return string.format('%d', 1733464259123456)")).isEqualTo("1733464259123456");
        assertThat(eval("redis.call('SET', 'n', 1733464259123456); return redis.call('GET', 'n')"))
                .isEqualTo("1733464259123456");
        assertThat(eval("redis.call('SET', 'n', 0.1); return redis.call('GET', 'n')"))
                .isEqualTo("0.10000000000000001");
    }

    @Test
    void scripts_cannotReachTheHostNorWriteGlobals() {
        for (String global : new String[] {"io", "os", "luajava", "dofile", "loadfile", "require", "package"}) {
            assertThatThrownBy(() -> eval("return " + global))
                    .hasMessageContaining("Script attempted to access nonexistent global variable '" + global + "'");
        }
        assertThatThrownBy(() -> eval("x = 1")).hasMessageContaining("Attempt to modify a readonly table");
    }

    @Test
    void time_isTheScriptsStartTime() {
        now[0] = 1_700_000_000_123L;
        assertThat(redis.call("TIME")).isEqualTo(List.of("1700000000", "123000"));
    }

    @Test
    void unknownCommandsAndArity_areWordedAsRedis() {
        assertThatThrownBy(() -> redis.call("FOO", "a", "b"))
                .hasMessage("ERR unknown command 'FOO', with args beginning with: 'a' 'b' ");
        assertThatThrownBy(() -> eval("return redis.pcall('FOO')")).isInstanceOf(RedisReplyException.class);
        assertThat(eval("return redis.pcall('FOO').err")).isEqualTo("ERR Unknown Redis command called from script");
        assertThat(eval("return redis.pcall('GET').err"))
                .isEqualTo("ERR Wrong number of args calling Redis command from script");
        assertThatThrownBy(() -> redis.call("HGET", "h"))
                .hasMessage("ERR wrong number of arguments for 'hget' command");
        assertThatThrownBy(() -> redis.call("SET", "k", "v", "PX", "0"))
                .hasMessage("ERR invalid expire time in 'set' command");
        assertThatThrownBy(() -> redis.call("SET", "k", "v", "BAD")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> redis.call("ZADD", "z", "NX", "a", "m")).hasMessage("ERR value is not a valid float");
    }

    @Test
    void set_getAndConditions() {
        assertThat(redis.call("SET", "k", "1", "NX", "GET")).isNull();
        assertThat(redis.call("SET", "k", "2", "NX", "GET")).isEqualTo("1");
        assertThat(redis.call("GET", "k")).isEqualTo("1");
        redis.call("PEXPIRE", "k", "500");
        assertThat(redis.call("SET", "k", "3", "KEEPTTL")).isEqualTo(StatusReply.OK);
        assertThat(redis.call("PTTL", "k")).isEqualTo(500L);
        redis.call("SET", "k", "4");
        assertThat(redis.call("PTTL", "k")).isEqualTo(-1L);
        assertThat(redis.call("PEXPIRE", "k", "-1")).isEqualTo(1L);
        assertThat(redis.call("EXISTS", "k")).isEqualTo(0L);
    }

    @Test
    void sortedSets_orderByScoreThenMember_andEmptyKeysVanish() {
        redis.call("ZADD", "z", "2", "b", "1", "c", "2", "a");
        assertThat(redis.call("ZRANGE", "z", "0", "-1", "WITHSCORES")).isEqualTo(List.of("c", "1", "a", "2", "b", "2"));
        assertThat(redis.call("ZADD", "z", "NX", "9", "a")).isEqualTo(0L);
        redis.call("ZREM", "z", "a", "b", "c");
        assertThat(redis.call("TYPE", "z")).isEqualTo(new StatusReply("none"));
    }

    @Test
    void scan_walksEveryKeyOnceAcrossPages() {
        for (int i = 0; i < 50; i++) {
            redis.call("SET", "k" + i, "v");
        }
        List<Object> seen = new ArrayList<>();
        String cursor = "0";
        do {
            List<?> page = (List<?>) redis.call("SCAN", cursor, "MATCH", "k*", "COUNT", "7");
            cursor = (String) page.get(0);
            seen.addAll((List<?>) page.get(1));
        } while (!cursor.equals("0"));
        assertThat(seen).hasSize(50).doesNotHaveDuplicates();
    }

    @Test
    void publish_countsSubscribers_andDeliversAfterTheScript() {
        List<String> got = new ArrayList<>();
        PubSubConnection a = redis.connectPubSub((c, m) -> got.add("a " + c + " " + m));
        PubSubConnection b = redis.connectPubSub((c, m) -> got.add("b " + c + " " + m));
        a.subscribe("ch", false);
        b.subscribe("ch", false);
        b.subscribe("sh", true);
        assertThat(eval("local n = redis.call('PUBLISH', 'ch', 'x'); return {n, "
                        + "redis.call('SPUBLISH', 'sh', 'y')}"))
                .isEqualTo(List.of(2L, 1L));
        assertThat(got).containsExactly("a ch x", "b ch x", "b sh y");
        redis.restart(true);
        assertThat(a.isOpen()).isFalse();
        assertThat(redis.call("PUBLISH", "ch", "z")).isEqualTo(0L);
    }

    @Test
    void restart_keepsOrEmptiesTheKeyspace() {
        redis.call("SET", "k", "v");
        redis.restart(true);
        assertThat(redis.call("GET", "k")).isEqualTo("v");
        redis.restart(false);
        assertThat(redis.call("GET", "k")).isNull();
    }

    @Test
    void info_memory_saysNoevictionAndNoLimit() {
        String info = (String) redis.call("INFO", "memory");
        assertThat(info).contains("\nmaxmemory:0\r\n").contains("maxmemory_policy:noeviction\r\n");
    }
}
