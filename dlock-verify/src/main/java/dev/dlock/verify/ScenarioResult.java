package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What one scenario did and what the checkers found.
 *
 * @param scenario the scenario
 * @param operations recorded operations (acquires, reads, writes, releases)
 * @param acquired successful acquires
 * @param rejected reads and writes refused by the fence
 * @param faults the faults, injected or skipped
 * @param violations everything the checkers reported
 * @param history the scenario's history directory (JSONL files)
 * @param millis wall time of the scenario
 * @param skipped why the whole scenario was skipped, or {@code null}
 * @param notes what the faults measured (failover times), printed under the table
 */
record ScenarioResult(
        Scenario scenario,
        int operations,
        int acquired,
        int rejected,
        List<FaultInjector.Injected> faults,
        List<Violation> violations,
        Path history,
        long millis,
        String skipped,
        List<String> notes) {

    Map<Checker, Integer> perChecker() {
        Map<Checker, Integer> counts = new EnumMap<>(Checker.class);
        for (Checker checker : Checker.values()) {
            counts.put(checker, 0);
        }
        for (Violation v : violations) {
            counts.merge(v.checker(), 1, Integer::sum);
        }
        return counts;
    }

    /** Violations that make the run fail: none for a control, none of the documented-only checkers. */
    List<Violation> counted() {
        if (scenario.isControl()) {
            return List.of();
        }
        return violations.stream()
                .filter(v -> !scenario.documentedOnly().contains(v.checker()))
                .toList();
    }

    /** For a control: whether the checker it targets caught it. */
    boolean caught() {
        return scenario.isControl()
                && skipped == null
                && violations.stream()
                        .anyMatch(v -> v.checker() == scenario.caughtBy()
                                && v.message().contains(scenario.caughtText()));
    }

    int injectedFaults() {
        return (int) faults.stream().filter(f -> f.skipped() == null).count();
    }
}
