package dev.dlock.internal.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockClient;
import dev.dlock.spi.TransportFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code LockClient.builder().redlock(...)} refuses bad input with a typed error naming the argument
 * (and the masked URI) before any I/O: the transport counts every connect, and none is made.
 */
final class RedlockOptionsTest {
    private final AtomicInteger connects = new AtomicInteger();
    private final TransportFactory counting = config -> {
        connects.incrementAndGet();
        throw new AssertionError("connect must not be called for bad input: " + config);
    };

    private LockClient.Builder builder() {
        return LockClient.builder().transport(counting);
    }

    @Test
    void nullOrTooFewUris_areRefused_namingTheArgument() {
        assertThatThrownBy(() -> builder().redlock((String[]) null).build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("redisUris");
        assertThatThrownBy(() -> builder().redlock().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 3 redisUris")
                .hasMessageContaining("was 0");
        assertThatThrownBy(() -> builder().redlock("redis://a", "redis://b").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 2");
        assertThatThrownBy(
                        () -> builder().redlock("redis://a", null, "redis://c").build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("redisUris[1]");
        assertThatThrownBy(
                        () -> builder().redlock("redis://a", "redis://b", " ").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redisUris[2] must not be blank");
        assertThat(connects).hasValue(0);
    }

    @Test
    void nonStandaloneOrRepeatedUris_areRefused_withTheMaskedUri() {
        assertThatThrownBy(() -> builder()
                        .redlock("redis://a", "redis-sentinel://:secret@s1,s2#m", "redis://c")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redisUris[1] must be a standalone")
                .hasMessageContaining("***")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> builder()
                        .redlock("redis://a", "redis://b", "redis-cluster://c1,c2")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redisUris[2] must be a standalone");
        assertThatThrownBy(() -> builder()
                        .redlock("redis://a:6379", "redis://:pw@b", "redis://a")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redisUris[2] names a server");
        assertThatThrownBy(() ->
                        builder().redlock("redis://a", "http://b", "redis://c").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("redisUris[1]: ");
        assertThat(connects).hasValue(0);
    }

    @Test
    void otherOptions_areCheckedAsForOneServer_andRedisUriOrReplicaAcksDoNotCombine() {
        String[] three = {"redis://a", "redis://b", "redis://c"};
        assertThatThrownBy(() -> builder().redlock(three).leaseTime(null).build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("leaseTime");
        assertThatThrownBy(() -> builder().redlock(three).keyPrefix("a{b").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keyPrefix");
        assertThatThrownBy(() -> builder()
                        .redlock(three)
                        .leaseTime(java.time.Duration.ofSeconds(2))
                        .commandTimeout(java.time.Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("commandTimeout must be shorter than half the leaseTime");
        assertThatThrownBy(() -> builder().redlock(three).redisUri("redis://d").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("either redisUri or redlock");
        assertThatThrownBy(() -> builder().redlock(three).replicaAcks(1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("replicaAcks does not apply to redlock");
        assertThat(connects).hasValue(0);
    }

    @Test
    void theUriArray_isCopied_soALaterChangeDoesNotReachTheBuilder() {
        String[] uris = {"redis://a", "redis://b", "redis://c"};
        LockClient.Builder b = builder().redlock(uris);
        uris[1] = null;
        assertThatThrownBy(b::build) // reached connect, for each node: the copy was good
                .isInstanceOf(dev.dlock.LockConnectionException.class)
                .hasMessageContaining("Redlock needs 2 of 3 nodes, only 0 could be reached")
                .hasMessageContaining("redis://a,redis://b,redis://c");
        assertThat(connects).hasValue(3);
    }
}
