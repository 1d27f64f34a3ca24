package dev.dlock.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command line of the benchmark: {@code --help}, and bad options named before any server starts. */
final class BenchMainTest {
    @Test
    void help_listsEveryOption_workloadAndPeer_andStartsNothing() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            BenchMain.main(new String[] {"--help"});
        } finally {
            System.setOut(old);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).startsWith("usage:").doesNotContain("redis-server");
        assertThat(text).contains("all, or some of sentinel,cluster,redlock3,redlock5");
        for (String option : new String[] {
            "--quick",
            "--only",
            "--peers",
            "--runs",
            "--measure-ms",
            "--process-warmup-ms",
            "--w5-warmup-ms",
            "--topologies",
            "--no-standalone",
            "--docs",
            "--no-report"
        }) {
            assertThat(text).contains(option);
        }
        for (Workload w : Workload.values()) {
            assertThat(text).contains(w.name());
        }
        for (Peer p : Peer.values()) {
            assertThat(text).contains(p.name());
        }
    }

    @Test
    void unknownWorkload_isNamed_withTheChoices() {
        assertThatThrownBy(() -> BenchMain.main(new String[] {"--only", "W1,W99"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown workload 'W99'")
                .hasMessageContaining("W14");
    }

    @Test
    void unknownOption_isNamed_withTheUsage() {
        assertThatThrownBy(() -> BenchMain.main(new String[] {"--fast"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option --fast")
                .hasMessageContaining("usage:");
    }
}
