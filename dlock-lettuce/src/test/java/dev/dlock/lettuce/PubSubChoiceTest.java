package dev.dlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The choice of sharded or classic pub/sub from the nodes' versions, and the MOVED target's parsing. */
final class PubSubChoiceTest {

    private static Map<String, String> versions(String... nodeAndVersion) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < nodeAndVersion.length; i += 2) {
            map.put(nodeAndVersion[i], nodeAndVersion[i + 1]);
        }
        return map;
    }

    @Test
    void everyNodeAt7OrLater_isSharded() {
        PubSubChoice choice = PubSubChoice.of(versions("a:1", "7.0.15", "b:2", "7.2.4", "c:3", "8.0.2"));
        assertThat(choice.sharded()).isTrue();
        assertThat(choice.reason()).contains("every node of 3");
    }

    @Test
    void aMixedCluster_isClassic_namingTheOldNode() {
        PubSubChoice choice = PubSubChoice.of(versions("a:1", "7.0.15", "b:2", "6.2.6", "c:3", "7.0.15"));
        assertThat(choice.sharded()).isFalse();
        assertThat(choice.reason()).isEqualTo("node b:2 runs Redis 6.2.6, before 7.0");
    }

    @Test
    void aNodeThatDidNotAnswer_orNoNode_isClassic() {
        Map<String, String> silent = versions("a:1", "7.0.15");
        silent.put("b:2", null);
        assertThat(PubSubChoice.of(silent).sharded()).isFalse();
        assertThat(PubSubChoice.of(silent).reason()).contains("b:2 did not report");
        assertThat(PubSubChoice.of(Map.of()).sharded()).isFalse();
    }

    @Test
    void versions_parse() {
        assertThat(PubSubChoice.atLeast7("7.0.0")).isTrue();
        assertThat(PubSubChoice.atLeast7("10.1.2")).isTrue();
        assertThat(PubSubChoice.atLeast7("6.2.14")).isFalse();
        assertThat(PubSubChoice.atLeast7("unstable")).isFalse();
        assertThat(PubSubChoice.versionIn("# Server\r\nredis_version:7.0.15\r\nredis_mode:cluster\r\n"))
                .isEqualTo("7.0.15");
        assertThat(PubSubChoice.versionIn("# Server\r\n")).isNull();
    }

    @Test
    void movedTarget_isTheNodeAMovedReplyNames() {
        assertThat(LettuceClusterTransport.movedTarget(
                        new io.lettuce.core.RedisCommandExecutionException("MOVED 3999 127.0.0.1:6381")))
                .containsExactly("127.0.0.1", "6381");
        assertThat(LettuceClusterTransport.movedTarget(
                        new io.lettuce.core.RedisCommandExecutionException("ASK 3999 127.0.0.1:6381")))
                .isNull();
        assertThat(LettuceClusterTransport.movedTarget(new IllegalStateException("boom")))
                .isNull();
    }
}
