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
    void options_areReadWhateverTheirOrder() {
        BenchOptions options = BenchOptions.parse(
                "--runs",
                "2",
                "--quick",
                "--only",
                "w1,W5",
                "--peers",
                "FLOOR,dlock",
                "--topologies",
                "all",
                "--no-report",
                "--docs",
                "out");
        assertThat(options.settings()).isEqualTo(Settings.quick().withRuns(2));
        assertThat(options.workloads()).containsExactly(Workload.W1, Workload.W5);
        assertThat(options.peers()).containsExactlyInAnyOrder(Peer.FLOOR, Peer.DLOCK);
        assertThat(options.topologies).contains(Topology.SENTINEL).doesNotContain(Topology.STANDALONE);
        assertThat(options.noReport).isTrue();
        assertThat(options.docs).isEqualTo(java.nio.file.Path.of("out"));

        BenchOptions defaults = BenchOptions.parse();
        assertThat(defaults.settings()).isEqualTo(Settings.full());
        assertThat(defaults.workloads()).containsExactlyElementsOf(java.util.EnumSet.allOf(Workload.class));
        assertThat(defaults.peers()).containsExactlyElementsOf(java.util.EnumSet.allOf(Peer.class));
        assertThat(defaults.topologies).isEmpty();
    }

    @Test
    void badValues_areNamed_beforeAnythingStarts() {
        assertThatThrownBy(() -> BenchMain.main(new String[] {"--topologies", "sentinel,moon"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown topology 'moon'")
                .hasMessageContaining("usage:");
        assertThatThrownBy(() -> BenchMain.main(new String[] {"--runs", "many"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--runs")
                .hasMessageContaining("many");
        assertThatThrownBy(() -> BenchMain.main(new String[] {"--peers"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--peers");
    }

    @Test
    void unknownOption_isNamed_withTheUsage() {
        assertThatThrownBy(() -> BenchMain.main(new String[] {"--fast"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option --fast")
                .hasMessageContaining("usage:");
    }
}
