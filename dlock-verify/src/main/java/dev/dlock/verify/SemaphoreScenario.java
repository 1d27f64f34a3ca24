package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.util.List;

/** The semaphore scenarios of the run: a permit workload judged by checker 7 ({@link PermitChecker}). */
final class SemaphoreScenario {
    /** The permits of the semaphore scenario: 3, against 5 workers (the 3 of 8 holders, scaled to one JVM). */
    static final int PERMITS = 3;

    private SemaphoreScenario() {}

    /**
     * A semaphore of {@code created} permits taken by five workers (leases and async acquires, one behind the fault
     * proxy, two on clients of their own), judged by {@code judged}: the checkers hold it to no more than {@code
     * judged} overlapping holds (checker 7) besides fencing, token order, liveness and fresh holds. No holder JVMs
     * (they take the mutex): the faults are those that hit in-process clients and the server.
     */
    static Scenario of(String name, int judged, int created, Checker caughtBy, String text, Fault... faults) {
        List<Scenario.Client> workers = List.of(
                Scenario.Client.of("t1", Acquirer.Style.PERMIT, Scenario.Via.DIRECT, 0),
                Scenario.Client.of("t2", Acquirer.Style.PERMIT_ASYNC, Scenario.Via.DIRECT, 0),
                Scenario.Client.of("p1", Acquirer.Style.PERMIT, Scenario.Via.PROXY, 0),
                Scenario.Client.of("o1", Acquirer.Style.PERMIT, Scenario.Via.OWN, 0),
                Scenario.Client.of("o2", Acquirer.Style.PERMIT_ASYNC, Scenario.Via.OWN, 0));
        return new Scenario(
                name,
                List.of(name),
                List.of(faults),
                Worker.Variant.HONEST,
                true,
                false,
                0,
                workers,
                caughtBy != null ? 200 : 0,
                caughtBy,
                text,
                List.of(),
                null,
                new Scenario.Semaphore(judged, created),
                null);
    }
}
