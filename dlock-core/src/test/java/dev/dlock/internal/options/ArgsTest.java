package dev.dlock.internal.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.util.Args;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

final class ArgsTest {
    @Test
    void name_rejectsNullBlankAndTooLong() {
        assertThatThrownBy(() -> Args.name(null, 10)).hasMessageContaining("name");
        assertThatThrownBy(() -> Args.name("  ", 10)).hasMessageContaining("blank");
        assertThatThrownBy(() -> Args.name("x".repeat(11), 10)).hasMessageContaining("at most 10");
        assertThat(Args.name("{odd}name", 10)).isEqualTo("{odd}name");
    }

    @Test
    void durations_rejectZeroNegativeAndOverflow() {
        assertThatThrownBy(() -> Args.positive("leaseTime", Duration.ZERO)).hasMessageContaining("leaseTime");
        assertThatThrownBy(() -> Args.notNegative("wait", Duration.ofMillis(-1)))
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> Args.notNegative("wait", Duration.ofDays(365L * 200)))
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> Args.notNegative("time", Long.MAX_VALUE, TimeUnit.SECONDS))
                .hasMessageContaining("overflows");
        assertThat(Args.notNegative("wait", Duration.ZERO)).isZero();
    }

    @Test
    void checkUri_masksPassword_andRejectsOtherSchemes() {
        assertThat(ClientOptions.checkUri("redis://:pw@host:1/0").masked()).isEqualTo("redis://:***@host:1/0");
        assertThat(ClientOptions.checkUri("rediss://user:pw@host").masked()).isEqualTo("rediss://user:***@host");
        assertThatThrownBy(() -> ClientOptions.checkUri("http://host")).hasMessageContaining("redisUri");
        assertThatThrownBy(() -> ClientOptions.checkUri("")).hasMessageContaining("redisUri");
    }

    @Test
    void keys_shareOneHashTag() {
        LockKeys keys = LockKeys.of("dlock", "a}b");
        assertThat(keys.lock()).isEqualTo("dlock:{a}b}");
        assertThat(keys.fence()).startsWith(keys.lock());
        assertThat(keys.channel()).startsWith(keys.lock());
    }
}
