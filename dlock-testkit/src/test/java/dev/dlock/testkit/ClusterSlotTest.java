package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class ClusterSlotTest {

    @Test
    void crc16_isXmodem() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertThat(ClusterSetup.crc16(check, 0, check.length)).isEqualTo(0x31C3);
        assertThat(ClusterSetup.slotOf("123456789")).isEqualTo(0x31C3 & 16383);
    }

    @Test
    void slotOf_hashesOnlyANonEmptyHashTag() {
        assertThat(ClusterSetup.slotOf("{user1000}.following")).isEqualTo(ClusterSetup.slotOf("user1000"));
        assertThat(ClusterSetup.slotOf("foo{bar}{zap}")).isEqualTo(ClusterSetup.slotOf("bar"));
        assertThat(ClusterSetup.slotOf("foo{{bar}}zap")).isEqualTo(ClusterSetup.slotOf("{bar"));
        assertThat(ClusterSetup.slotOf("foo{}{bar}")).isNotEqualTo(ClusterSetup.slotOf("bar"));
        assertThat(ClusterSetup.slotOf("")).isZero();
    }
}
