package dev.dlock.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One torture run as the tiers start it: {@code dlock verify} from the packaged jar of dlock-cli ({@code
 * -Ddlock.cli.jar}), as a process of its own, as users run it, so that the shipped path (the testkit's redis-server
 * launcher, the holder JVMs' classes, the Lua scripts, the controls' switch, all inside the one jar) is what the tiers
 * prove clean. Its report is read back from its output.
 *
 * @param seed the seed the run used, for the failure messages
 * @param allScenarios whether the tier's every scenario ran (no {@code -Ddlock.verify.only})
 * @param exitCode the process's exit code
 * @param report the report it printed
 * @param totals the report's totals line, read back
 */
record TierRun(long seed, boolean allScenarios, int exitCode, String report, Totals totals) {
    /** The packaged jar that the tiers run. */
    static final Path JAR = Path.of(System.getProperty("dlock.cli.jar", "../dlock-cli/target/dlock-cli.jar"));

    private static final Pattern TOTAL = Pattern.compile(
            "total: (\\d+) operations, (\\d+) faults \\((\\d+) skipped\\), (\\d+) violations, controls caught (\\d+)/(\\d+)");

    /**
     * The totals line of a report.
     *
     * @param operations operations of every scenario
     * @param faults faults injected
     * @param skippedFaults faults skipped
     * @param violations violations counted
     * @param controlsCaught negative controls caught
     * @param controls negative controls run
     */
    record Totals(long operations, int faults, int skippedFaults, int violations, int controlsCaught, int controls) {}

    /**
     * Runs a tier: the seed from {@code -Ddlock.verify.seed}, else random; only the scenarios named in {@code
     * -Ddlock.verify.only=name,name} (of either tier), else the tier's; the transport named by {@code
     * -Ddlock.verify.transport=resp|lettuce}, else the jar's default; the scenarios in {@code -Ddlock.verify.lanes}
     * lanes side by side, else three for the quick tier (the build's time, docs/testing.md) and one for the long tier.
     */
    static TierRun tier(boolean longTier, Duration timeout) throws Exception {
        long seed = Long.getLong("dlock.verify.seed", System.nanoTime() & 0xFFFFFFL);
        String only = System.getProperty("dlock.verify.only", "");
        String transport = System.getProperty("dlock.verify.transport", "");
        List<String> args = new ArrayList<>(List.of(
                "--seed",
                Long.toString(seed),
                "--lanes",
                Integer.toString(Integer.getInteger("dlock.verify.lanes", longTier ? 1 : 3)),
                "--out",
                Path.of("target", "dlock-verify", (longTier ? "long-" : "quick-") + seed)
                        .toString()));
        if (longTier) {
            args.add("--long");
        }
        if (!only.isBlank()) {
            args.addAll(List.of("--only", only));
        }
        if (!transport.isBlank()) {
            args.addAll(List.of("--transport", transport));
        }
        return run(seed, only.isBlank(), timeout, args);
    }

    /**
     * Runs {@code dlock verify} with {@code args} from the packaged jar, prints its report and reads it back.
     *
     * @param seed the seed among {@code args}, for the messages
     * @param allScenarios whether {@code args} leave every scenario of the tier in
     * @param timeout how long the run may take before it counts as hung and is killed
     */
    static TierRun run(long seed, boolean allScenarios, Duration timeout, List<String> args) throws Exception {
        assertThat(JAR).as("dlock-cli's packaged jar (build dlock-cli first)").isRegularFile();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString(), "verify"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("DLOCK_REDIS_URL"); // never a developer's Redis unless --redis says so
        // the redis-server the other tests use, which may be the testkit's embedded one: the jar itself looks only at
        // $DLOCK_REDIS_SERVER and PATH
        builder.environment()
                .put("DLOCK_REDIS_SERVER", RedisServer.resolveBinary().toString());
        Path out = Files.createTempFile("dlock-tier-out", ".txt");
        Path err = Files.createTempFile("dlock-tier-err", ".txt");
        builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process process = builder.start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("dlock verify (seed " + seed + ") did not end within " + timeout
                        + "; its output so far:\n" + read(out) + read(err));
            }
            String report = read(out);
            System.out.print(report);
            System.err.print(read(err));
            return new TierRun(seed, allScenarios, process.exitValue(), report, totals(report));
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static Totals totals(String report) {
        Matcher m = TOTAL.matcher(report);
        if (!m.find()) {
            throw new AssertionError("no totals line in the report:\n" + report);
        }
        return new Totals(
                Long.parseLong(m.group(1)),
                Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)),
                Integer.parseInt(m.group(5)),
                Integer.parseInt(m.group(6)));
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** Every negative control was caught, nothing else was found, no fault was skipped, and the run exited 0. */
    void assertClean() {
        assertThat(totals.controlsCaught())
                .as("controls caught, seed %d:%n%s", seed, report)
                .isEqualTo(totals.controls());
        assertThat(totals.violations())
                .as("violations, seed %d:%n%s", seed, report)
                .isZero();
        assertThat(totals.skippedFaults()).as("skipped faults:%n%s", report).isZero();
        assertThat(report).as("seed %d", seed).contains("RESULT: PASS");
        assertThat(exitCode).as("exit code, seed %d:%n%s", seed, report).isZero();
    }
}
