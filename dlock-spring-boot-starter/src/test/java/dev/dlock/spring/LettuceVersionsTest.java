package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The Lettuce and Netty check for dlock-lettuce: versions as the jars give them, and the real ones on
 * this class path (lettuce-core stays on it when surefire leaves dlock-lettuce out).
 */
final class LettuceVersionsTest {

    @Test
    void bootsLettuce6_failsNamingTheVersionFoundAndThePropertyToSet() {
        assertThatThrownBy(() -> LettuceVersions.check("6.6.0.RELEASE", "4.1.118.Final"))
                .isInstanceOfSatisfying(DlockStartupException.class, e -> {
                    assertThat(e.getMessage())
                            .contains("the class path has lettuce-core 6.6.0.RELEASE")
                            .contains("built and tested with " + LettuceVersions.TESTED_LETTUCE);
                    assertThat(e.action())
                            .contains("<lettuce.version>" + LettuceVersions.TESTED_LETTUCE + "</lettuce.version>")
                            .contains("<netty.version>" + LettuceVersions.TESTED_NETTY + "</netty.version>");
                });
    }

    @Test
    void lettuce7OnBootsNetty41_failsNamingNettysVersionAndProperty() {
        assertThatThrownBy(() -> LettuceVersions.check("7.7.0.RELEASE/1960d49", "4.1.118.Final"))
                .isInstanceOfSatisfying(DlockStartupException.class, e -> {
                    assertThat(e.getMessage()).contains("netty-common 4.1.118.Final");
                    assertThat(e.action()).contains("<netty.version>" + LettuceVersions.TESTED_NETTY);
                });
    }

    @Test
    void lettuce7OnNetty42_orVersionsThatCannotBeRead_pass() {
        assertThatCode(() -> LettuceVersions.check("7.7.0.RELEASE/1960d49", "4.2.13.Final"))
                .doesNotThrowAnyException();
        assertThatCode(() -> LettuceVersions.check("8.0.0", "5.0.0.Final")).doesNotThrowAnyException();
        assertThatCode(() -> LettuceVersions.check(null, null)).doesNotThrowAnyException();
        assertThatCode(() -> LettuceVersions.check("unknown", "snapshot")).doesNotThrowAnyException();
    }

    @Test
    void theRealVersionsOnTheClassPath_areReadAndPass() {
        ClassLoader loader = getClass().getClassLoader();
        assertThat(LettuceVersions.lettuceVersion(loader)).startsWith(LettuceVersions.TESTED_LETTUCE);
        assertThat(LettuceVersions.nettyVersion(loader)).isEqualTo(LettuceVersions.TESTED_NETTY);
        assertThat(LettuceVersions.TESTED_LETTUCE).startsWith("7.");
        assertThatCode(() -> LettuceVersions.check(loader)).doesNotThrowAnyException();
    }
}
