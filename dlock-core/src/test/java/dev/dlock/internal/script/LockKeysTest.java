package dev.dlock.internal.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.internal.util.Glob;
import org.junit.jupiter.api.Test;

final class LockKeysTest {
    /** The text Redis hashes for a cluster slot: between the first '{' and the next '}', if not empty. */
    private static String hashed(String key) {
        int open = key.indexOf('{');
        int close = open < 0 ? -1 : key.indexOf('}', open + 1);
        return close > open + 1 ? key.substring(open + 1, close) : key;
    }

    @Test
    void everyKeyOfALock_hashesTheSameText_whateverTheName() {
        for (String name : new String[] {"plain", "}", "}x", "}}", "a}b", "{a}", "{", "}{}", "ü}"}) {
            LockKeys keys = LockKeys.of("dlock", name);
            String tag = hashed(keys.lock());
            assertThat(tag).as("tag of %s", name).isNotEqualTo(keys.lock());
            for (String key : keys.scriptKeys()) {
                assertThat(hashed(key)).as("%s of %s", key, name).isEqualTo(tag);
            }
            assertThat(LockKeys.nameOf("dlock", keys.lock())).isEqualTo(name);
        }
    }

    @Test
    void namesThatStartWithABrace_neverShareAKeyWithAnotherName() {
        assertThat(LockKeys.of("dlock", "}x").lock()).isEqualTo("dlock:^{7d78}");
        assertThat(LockKeys.of("dlock", "^{7d78}").lock()).isNotEqualTo("dlock:^{7d78}");
        assertThat(LockKeys.nameOf("dlock", "dlock:^{7878}"))
                .as("hex of a name without '}' first")
                .isNull();
        assertThat(LockKeys.nameOf("dlock", "dlock:{x}:fence")).isNull();
        assertThat(LockKeys.nameOf("other", "dlock:{x}")).isNull();
    }

    @Test
    void glob_followsRedisMatch() {
        assertThat(Glob.matches("*", "}x")).isTrue();
        assertThat(Glob.matches("job-?", "job-1")).isTrue();
        assertThat(Glob.matches("job-?", "job-12")).isFalse();
        assertThat(Glob.matches("job-[0-9]*", "job-42x")).isTrue();
        assertThat(Glob.matches("job-[^0-9]", "job-4")).isFalse();
        assertThat(Glob.matches("job-[^0-9]", "job-a")).isTrue();
        assertThat(Glob.matches("a\\*b", "a*b")).isTrue();
        assertThat(Glob.matches("a\\*b", "axb")).isFalse();
        assertThat(Glob.matches("}*", "}x")).isTrue();
        assertThat(Glob.matches("*x*y", "axbxy")).isTrue();
    }
}
