package dev.dlock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.spi.RedisUri.HostPort;
import dev.dlock.spi.RedisUri.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisUriTest {

    @Test
    void standalone_withCredentialsAndDatabase() {
        RedisUri uri = RedisUri.parse("redis://app:p%40ss@cache.local:6380/2");
        assertThat(uri.topology()).isEqualTo(Topology.STANDALONE);
        assertThat(uri.tls()).isFalse();
        assertThat(uri.hosts()).containsExactly(new HostPort("cache.local", 6380));
        assertThat(uri.user()).isEqualTo("app");
        assertThat(uri.password()).isEqualTo("p@ss");
        assertThat(uri.database()).isEqualTo(2);
        assertThat(uri.masterName()).isNull();
        assertThat(uri.masked()).isEqualTo("redis://app:***@cache.local:6380/2");
        assertThat(uri).hasToString(uri.masked());
    }

    @Test
    void standalone_defaults_tls_passwordOnly_ipv6() {
        RedisUri uri = RedisUri.parse("rediss://:secret@[::1]");
        assertThat(uri.tls()).isTrue();
        assertThat(uri.hosts()).containsExactly(new HostPort("::1", 6379));
        assertThat(uri.user()).isNull();
        assertThat(uri.password()).isEqualTo("secret");
        assertThat(uri.masked()).isEqualTo("rediss://:***@[::1]");
        assertThat(RedisUri.parse("redis://h").password()).isNull();
        assertThat(RedisUri.parse("redis://h/").database()).isZero();
    }

    @Test
    void sentinel_severalHosts_defaultPort_masterName() {
        RedisUri uri = RedisUri.parse("redis-sentinel://:pw@s1:26380,s2,[::1]:26381/3#my%20master");
        assertThat(uri.topology()).isEqualTo(Topology.SENTINEL);
        assertThat(uri.hosts())
                .isEqualTo(List.of(new HostPort("s1", 26380), new HostPort("s2", 26379), new HostPort("::1", 26381)));
        assertThat(uri.database()).isEqualTo(3);
        assertThat(uri.masterName()).isEqualTo("my master");
        assertThat(uri.password()).isEqualTo("pw");
        assertThat(uri.masked()).isEqualTo("redis-sentinel://:***@s1:26380,s2,[::1]:26381/3#my%20master");
    }

    @Test
    void cluster_seedNodes() {
        RedisUri uri = RedisUri.parse("redis-cluster://n1:7000,n2:7001");
        assertThat(uri.topology()).isEqualTo(Topology.CLUSTER);
        assertThat(uri.hosts()).containsExactly(new HostPort("n1", 7000), new HostPort("n2", 7001));
        assertThat(uri.masterName()).isNull();
    }

    @Test
    void badUris_failNamingTheMaskedUri() {
        assertThatThrownBy(() -> RedisUri.parse("http://h"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redis-cluster://");
        assertThatThrownBy(() -> RedisUri.parse("redis://:pw@"))
                .hasMessageContaining("no host")
                .hasMessageContaining(":***@")
                .hasMessageNotContaining("pw");
        assertThatThrownBy(() -> RedisUri.parse("redis://a,b")).hasMessageContaining("redis-sentinel://");
        assertThatThrownBy(() -> RedisUri.parse("redis-sentinel://s1,s2")).hasMessageContaining("master name");
        assertThatThrownBy(() -> RedisUri.parse("redis-sentinel://s1#")).hasMessageContaining("master name");
        assertThatThrownBy(() -> RedisUri.parse("redis://h#m")).hasMessageContaining("only redis-sentinel://");
        assertThatThrownBy(() -> RedisUri.parse("redis-cluster://h/1")).hasMessageContaining("database 0");
        assertThatThrownBy(() -> RedisUri.parse("redis://:pw@h:99999")).hasMessageContaining("port");
        assertThatThrownBy(() -> RedisUri.parse("redis://h:x")).hasMessageContaining("port");
        assertThatThrownBy(() -> RedisUri.parse("redis://h/x")).hasMessageContaining("database number");
        assertThatThrownBy(() -> RedisUri.parse("redis://a,,b")).hasMessageContaining("no host");
        assertThatThrownBy(() -> RedisUri.parse("redis://h?timeout=1")).hasMessageContaining("query");
        assertThatThrownBy(() -> RedisUri.parse(null)).isInstanceOf(NullPointerException.class);
    }
}
