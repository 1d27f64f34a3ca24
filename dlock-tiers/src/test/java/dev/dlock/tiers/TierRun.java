package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

/**
 * One tier of the torture run as its IT starts it: the seed from {@code -Ddlock.verify.seed}, else random; only the
 * scenarios named in {@code -Ddlock.verify.only=name,name} (of either tier), else the tier's; the transport named by {@code
 * -Ddlock.verify.transport=resp|lettuce}, else {@link ClientTransport#DEFAULT}; the scenarios in {@code
 * -Ddlock.verify.lanes} lanes side by side, else two for the quick tier (the build's time, docs/testing.md) and one for
 * the long tier.
 *
 * @param seed the seed the run used, for the failure messages
 * @param allScenarios whether every scenario ran (no {@code -Ddlock.verify.only})
 * @param report the run's report, already printed
 */
record TierRun(long seed, boolean allScenarios, Report report) {

    static TierRun start(boolean longTier) throws Exception {
        long seed = Long.getLong("dlock.verify.seed", System.nanoTime() & 0xFFFFFFL);
        String only = System.getProperty("dlock.verify.only", "");
        List<Scenario> scenarios = only.isEmpty()
                ? Scenario.of(longTier)
                : Scenario.all().stream()
                        .filter(s -> List.of(only.split(",")).contains(s.name()))
                        .toList();
        Path out = Path.of("target", "dlock-verify", (longTier ? "long-" : "quick-") + seed);
        String transport = System.getProperty("dlock.verify.transport");
        Report report = Verify.run(
                new Options(
                        null,
                        seed,
                        longTier,
                        out,
                        transport == null || transport.isBlank()
                                ? ClientTransport.DEFAULT
                                : ClientTransport.of(transport, "-Ddlock.verify.transport")),
                scenarios,
                Integer.getInteger("dlock.verify.lanes", longTier ? 1 : 2));
        System.out.print(report.text());
        return new TierRun(seed, only.isEmpty(), report);
    }

    /** Every negative control was caught, nothing else was found, no fault was skipped, and the run exits 0. */
    void assertClean() {
        assertThat(report.controlsCaught())
                .as("controls caught, seed %d:%n%s", seed, report)
                .isEqualTo(report.controls());
        assertThat(report.violations())
                .as("violations, seed %d:%n%s", seed, report)
                .isZero();
        assertThat(report.skippedFaults()).as("skipped faults:%n%s", report).isZero();
        assertThat(report.exitCode()).isZero();
    }
}
