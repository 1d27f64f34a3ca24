package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

final class OptionsTest {

    @Test
    void parse_readsEveryOption() {
        Options options = Options.parse("--redis", "redis://127.0.0.1:7000", "--seed", "42", "--long", "--out", "x");
        assertThat(options).isEqualTo(new Options("redis://127.0.0.1:7000", 42, true, Path.of("x")));
        assertThat(Options.parse("--transport", "resp").transport()).isEqualTo(ClientTransport.RESP);
        assertThat(Options.parse("--transport", "LETTUCE").transport()).isEqualTo(ClientTransport.LETTUCE);
    }

    @Test
    void parse_withoutSeed_picksOneAndUsesItInTheDefaultDirectory() {
        Options options = Options.parse();
        assertThat(options.redisUri()).isNull();
        assertThat(options.longTier()).isFalse();
        assertThat(options.transport()).isEqualTo(ClientTransport.DEFAULT);
        assertThat(options.outDir()).isEqualTo(Path.of("target", "dlock-verify", Long.toString(options.seed())));
    }

    @Test
    void parse_only_keepsTheNamedScenarios_andRefusesAnUnknownOne() {
        Options options = Options.parse("--only", "holder-faults, network", "--seed", "1");
        assertThat(options.only()).containsExactly("holder-faults", "network");
        assertThat(Verify.chosen(options.only()))
                .extracting(Scenario::name)
                .containsExactly("holder-faults", "network");
        assertThatThrownBy(() -> Options.parse("--only", "holder-faults,nope"))
                .hasMessageContaining("no scenario 'nope'")
                .hasMessageContaining("holder-faults");
    }

    @Test
    void parse_lanes_defaultsToOne_andRefusesNoneOrTooMany() {
        assertThat(Options.parse().lanes()).isEqualTo(1);
        assertThat(Options.parse("--lanes", "2").lanes()).isEqualTo(2);
        assertThatThrownBy(() -> Options.parse("--lanes", "0")).hasMessage("--lanes must be at least 1, was 0");
        assertThatThrownBy(() -> Options.parse("--lanes", "17")).hasMessage("--lanes must be at most 16, was 17");
        assertThatThrownBy(() -> Options.parse("--lanes", "two")).hasMessage("--lanes must be an integer, not 'two'");
        assertThatThrownBy(
                        () -> new Options(null, 1, false, Path.of("x"), java.util.List.of(), ClientTransport.RESP, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--lanes must be at least 1, was 0");
    }

    @Test
    void parse_whenArgumentIsUnknownOrValueMissing_namesIt() {
        assertThatThrownBy(() -> Options.parse("--sed", "1")).hasMessageContaining("unknown argument '--sed'");
        assertThatThrownBy(() -> Options.parse("--seed")).hasMessageContaining("--seed needs a value");
        assertThatThrownBy(() -> Options.parse("--seed", "x")).hasMessageContaining("--seed must be an integer");
        assertThatThrownBy(() -> Options.parse("--redis", "--long")).hasMessageContaining("--redis needs a value");
        assertThatThrownBy(() -> Options.parse("--transport")).hasMessageContaining("--transport needs a value");
        assertThatThrownBy(() -> Options.parse("--transport", "jedis"))
                .hasMessage("--transport must be one of resp, lettuce, not 'jedis'");
    }

    @Test
    void run_withBadArguments_printsUsageAndReturns2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = VerifyMain.run(
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                "--bogus");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage: dlock verify");
    }

    @Test
    void run_withAnUnknownTransport_namesTheOptionAndReturns2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = VerifyMain.run(
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                "--transport",
                "netty");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--transport must be one of resp, lettuce");
    }

    @Test
    void run_help_printsEveryFlagAndReturns0() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = VerifyMain.run(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                "--help");
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("usage: dlock verify")
                .contains("--redis", "--seed", "--long", "--out", "--only", "--transport", "default: lettuce");
    }

    @Test
    void flags_takeTheFallbackUriOnlyWithoutRedis() {
        VerifyFlags none = new VerifyFlags();
        assertThat(none.toOptions("redis://fallback:1").redisUri()).isEqualTo("redis://fallback:1");
        assertThat(none.toOptions(" ").redisUri()).isNull();

        VerifyFlags given = VerifyMain.parse("--redis", "redis://given:2", "--seed", "5").flags;
        assertThat(given.toOptions("redis://fallback:1"))
                .isEqualTo(new Options("redis://given:2", 5, false, Path.of("target", "dlock-verify", "5")));
    }

    @Test
    void viaProxy_refusesTlsAndSentinelUris() {
        assertThatThrownBy(() -> Connections.viaProxy("rediss://h:1", 2)).hasMessageContaining("redis:// URIs only");
    }
}
