package dev.dlock;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A builder without a URI says what to call, before any I/O (issue 27). */
final class BuilderWithoutUriTest {

    @Test
    void build_withoutUri_saysToCallRedisUri() {
        assertThatThrownBy(() -> LockClient.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no Redis URI")
                .hasMessageContaining("redisUri(\"redis://host:6379\")")
                .hasMessageContaining("redlock(");
        assertThatThrownBy(() -> LockClient.builder().redisUri(null).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("redisUri(");
    }

    @Test
    void connect_withNull_staysANullPointerExceptionNamingTheArgument() {
        assertThatThrownBy(() -> LockClient.connect(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("redisUri");
    }
}
