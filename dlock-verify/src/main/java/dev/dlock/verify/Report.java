package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a torture run: per scenario its operations, faults and violations per checker, and whether each
 * negative control was caught. Immutable and thread-safe.
 */
public final class Report {

    private static final int SHOWN_VIOLATIONS = 8;

    private static final Map<Checker, String> LABELS = Map.of(
            Checker.MUTUAL_EXCLUSION, "C1",
            Checker.FENCE, "C2",
            Checker.LOST_UPDATE, "C3",
            Checker.TOKEN_ORDER, "C4",
            Checker.LIVENESS, "C5",
            Checker.FRESH_HOLD, "C6",
            Checker.PERMITS, "C7",
            Checker.READ_WRITE, "C8",
            Checker.HOLDERS_EXPIRY, "C9");

    private final String header;
    private final List<ScenarioResult> results;
    private final Path outDir;

    Report(String header, List<ScenarioResult> results, Path outDir) {
        this.header = header;
        this.results = List.copyOf(results);
        this.outDir = outDir;
    }

    /**
     * Tells whether the run is clean: no counted violation in any scenario and every negative control caught.
     *
     * @return {@code true} for a clean run
     */
    public boolean clean() {
        return violations() == 0 && controlsCaught() == controls();
    }

    /**
     * Returns the exit code of {@code dlock verify}.
     *
     * @return 0 for a clean run, 1 otherwise
     */
    public int exitCode() {
        return clean() ? 0 : 1;
    }

    /**
     * Returns the number of violations that count against the run (controls and documented outcomes excluded).
     *
     * @return the number of violations
     */
    public int violations() {
        return results.stream().mapToInt(r -> r.counted().size()).sum();
    }

    /**
     * Returns the number of operations recorded over all scenarios.
     *
     * @return the number of operations
     */
    public int operations() {
        return results.stream().mapToInt(ScenarioResult::operations).sum();
    }

    /**
     * Returns the number of faults injected (skipped ones not counted).
     *
     * @return the number of faults
     */
    public int faults() {
        return results.stream().mapToInt(ScenarioResult::injectedFaults).sum();
    }

    /**
     * Returns the number of scripted faults that could not be injected (each is listed in {@link #text()}).
     *
     * @return the number of skipped faults
     */
    public int skippedFaults() {
        return results.stream()
                .mapToInt(r -> r.faults().size() - r.injectedFaults())
                .sum();
    }

    /**
     * Returns the number of negative controls that ran.
     *
     * @return the number of controls
     */
    public int controls() {
        return (int) results.stream().filter(r -> r.scenario().isControl()).count();
    }

    /**
     * Returns the number of negative controls their checker caught.
     *
     * @return the number of caught controls
     */
    public int controlsCaught() {
        return (int) results.stream().filter(ScenarioResult::caught).count();
    }

    List<ScenarioResult> results() {
        return results;
    }

    /**
     * Returns the one-screen text report.
     *
     * @return the report, lines separated by {@code \n}
     */
    public String text() {
        StringBuilder out = new StringBuilder(header).append('\n');
        out.append(String.format(
                "%-38s %6s %5s %6s %5s  %3s %3s %3s %3s %3s %3s %3s %3s %3s %7s%n",
                "scenario",
                "ops",
                "acq",
                "fenced",
                "fault",
                "C1",
                "C2",
                "C3",
                "C4",
                "C5",
                "C6",
                "C7",
                "C8",
                "C9",
                "time"));
        for (ScenarioResult r : results) {
            if (r.skipped() != null) {
                out.append(String.format("%-38s skipped: %s%n", r.scenario().name(), r.skipped()));
                continue;
            }
            Map<Checker, Integer> counts = r.perChecker();
            out.append(String.format(
                    "%-38s %6d %5d %6d %2d/%-2d  %3d %3d %3d %3d %3d %3d %3d %3d %3d %6.1fs%s%n",
                    r.scenario().name(),
                    r.operations(),
                    r.acquired(),
                    r.rejected(),
                    r.injectedFaults(),
                    r.faults().size(),
                    counts.get(Checker.MUTUAL_EXCLUSION),
                    counts.get(Checker.FENCE),
                    counts.get(Checker.LOST_UPDATE),
                    counts.get(Checker.TOKEN_ORDER),
                    counts.get(Checker.LIVENESS),
                    counts.get(Checker.FRESH_HOLD),
                    counts.get(Checker.PERMITS),
                    counts.get(Checker.READ_WRITE),
                    counts.get(Checker.HOLDERS_EXPIRY),
                    r.millis() / 1000.0,
                    r.scenario().isControl() ? (r.caught() ? "  control CAUGHT" : "  control NOT CAUGHT") : ""));
        }
        out.append("checkers: C1 mutual exclusion, C2 fenced resource, C3 no lost update, C4 token order, C5 liveness,"
                + " C6 fresh hold, C7 permit count (semaphores), C8 reader/writer exclusion (read-write locks),"
                + " C9 holders key expiry (shared locks);"
                + " fenced = refusals by the fence\n");
        for (ScenarioResult r : results) {
            for (FaultInjector.Injected f : r.faults()) {
                if (f.skipped() != null) {
                    out.append("skipped fault ")
                            .append(f.fault().label())
                            .append(" in ")
                            .append(r.scenario().name())
                            .append(": ")
                            .append(f.skipped())
                            .append('\n');
                }
            }
            if (!r.scenario().documentedOnly().isEmpty() && r.skipped() == null) {
                out.append("documented outcome of ")
                        .append(r.scenario().name())
                        .append(" (not counted, see docs/verification.md):");
                for (Checker checker : r.scenario().documentedOnly()) {
                    out.append(' ')
                            .append(LABELS.get(checker))
                            .append(' ')
                            .append(r.perChecker().get(checker));
                }
                out.append('\n');
            }
            for (String note : r.notes()) {
                out.append(r.scenario().name()).append(": ").append(note).append('\n');
            }
        }
        int shown = 0;
        for (ScenarioResult r : results) {
            for (Violation v : r.counted()) {
                if (shown++ < SHOWN_VIOLATIONS) {
                    out.append("VIOLATION ")
                            .append(r.scenario().name())
                            .append(": ")
                            .append(v)
                            .append('\n');
                }
            }
        }
        if (shown > SHOWN_VIOLATIONS) {
            out.append("... ").append(shown - SHOWN_VIOLATIONS).append(" more in violations.txt files\n");
        }
        out.append(String.format(
                "total: %d operations, %d faults (%d skipped), %d violations, controls caught %d/%d; histories in %s%n",
                operations(), faults(), skippedFaults(), violations(), controlsCaught(), controls(), outDir));
        out.append(clean() ? "RESULT: PASS" : "RESULT: FAIL").append('\n');
        return out.toString();
    }

    @Override
    public String toString() {
        return text();
    }
}
